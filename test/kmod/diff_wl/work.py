# python3 workload of the differential rig (diff_wl/python3.sh)
import json, os, socket, subprocess, threading
with open("/tmp/wl/py.json", "w") as f:
    json.dump({"n": list(range(50))}, f)
with open("/tmp/wl/py.json") as f:
    assert len(json.load(f)["n"]) == 50
a, b = socket.socketpair()
a.sendall(b"ping from python")
print(b.recv(64))
t = threading.Thread(target=lambda: os.stat("/tmp/wl"))
t.start()
t.join()
print(subprocess.run(["/usr/bin/true"]).returncode)
os.unlink("/tmp/wl/py.json")
# poll exits list only the fds with revents; failed writes keep their data,
# failed reads the iovec total, short reads the bytes read
import select
r1, w1 = os.pipe()
r2, w2 = os.pipe()
os.write(w1, b"ready")
p = select.poll()
for fd, ev in ((r1, select.POLLIN), (r2, select.POLLIN), (w2, select.POLLOUT)):
    p.register(fd, ev)
print(len(p.poll(0)))
for call, args in ((os.write, (r2, b"write to a read end")),
                   (os.writev, (r2, [b"writev ", b"to a read end"])),
                   (os.pwrite, (r2, b"pwrite to a pipe", 0)),
                   (os.pwritev, (r2, [b"pwritev ", b"to a pipe"], 0)),
                   (os.readv, (w2, [bytearray(7), bytearray(9)])),
                   (os.preadv, (w2, [bytearray(5), bytearray(11)], 0))):
    try:
        call(*args)
    except OSError as e:
        print(call.__name__, e.errno)
print(os.readv(r1, [bytearray(2), bytearray(64)]))
a.sendall(b"short")
print(b.recvmsg(256)[0])
b.setblocking(False)
try:
    b.recvmsg(32)
except BlockingIOError:
    print("recvmsg EAGAIN")
# the pwritev/preadv syscalls themselves (os.pwritev/os.preadv use the *v2
# calls): failed on a pipe, then on a file, preadv short
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
bufs = [ctypes.create_string_buffer(b"pwritev "), ctypes.create_string_buffer(b"iovecs")]
iov = (iovec * 2)(*[iovec(ctypes.cast(x, ctypes.c_void_p), len(x.raw) - 1) for x in bufs])
print(libc.pwritev(r2, iov, 2, ctypes.c_long(0)), libc.preadv(w2, iov, 2, ctypes.c_long(0)))
fd = os.open("/tmp/wl/py.vec", os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o600)
print(libc.pwritev(fd, iov, 1, ctypes.c_long(0)), libc.preadv(fd, iov, 2, ctypes.c_long(2)))
os.close(fd)
os.unlink("/tmp/wl/py.vec")
