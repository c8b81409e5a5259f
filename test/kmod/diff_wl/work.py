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
