// SPDX-License-Identifier: GPL-2.0
/*
 * fill.c - turn a probe hit into one event of the e5c53d64 layout.
 *
 * Each event's parameter list comes from g_fill_events (fill_table.h,
 * generated from the fill column of driver/events.tsv by gen_tables.py, the
 * table the eBPF driver's table filler reads too): a PT_* type and a fill
 * source per parameter.  Probes run with preemption disabled, so user memory is
 * only read with the *_nofault helpers and nothing here may sleep.
 */
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/un.h>
#include <linux/uio.h>
#include <linux/tcp.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/cred.h>
#include <linux/audit.h>
#include <linux/pid_namespace.h>
#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/fs_struct.h>
#include <linux/seqlock.h>
#include <linux/tty.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif
#include <net/sock.h>
#include <net/inet_sock.h>
#include <net/af_unix.h>
#include "event_format.h"
#include "fill_table.h"
#include "ppm_flags.h"
#include "fill.h"

#define KMOD_MAX_PROC_AREA 4096	/* bytes of args or env copied */
#define KMOD_MAX_PATH 4096
#define KMOD_MAX_IOV 32

/* bytes of the fixed-size parameter types; 0 for the others */
static const u8 pt_size[256] = {
	[PT_INT8] = 1, [PT_UINT8] = 1, [PT_FLAGS8] = 1, [PT_SIGTYPE] = 1,
	[PT_L4PROTO] = 1, [PT_SOCKFAMILY] = 1,
	[PT_INT16] = 2, [PT_UINT16] = 2, [PT_SYSCALLID] = 2, [PT_PORT] = 2,
	[PT_FLAGS16] = 2,
	[PT_INT32] = 4, [PT_UINT32] = 4, [PT_BOOL] = 4, [PT_IPV4ADDR] = 4,
	[PT_UID] = 4, [PT_GID] = 4, [PT_FLAGS32] = 4, [PT_SIGSET] = 4,
	[PT_MODE] = 4,
	[PT_INT64] = 8, [PT_UINT64] = 8, [PT_ERRNO] = 8, [PT_FD] = 8,
	[PT_PID] = 8, [PT_RELTIME] = 8, [PT_ABSTIME] = 8, [PT_DOUBLE] = 8,
};

static __always_inline int room(struct kfill *f, u32 len)
{
	return f->pos + len <= f->cap;
}

/* close the current parameter with @len bytes written at f->pos */
static __always_inline int commit(struct kfill *f, u32 len)
{
	if (len > 0xffff)
		return -E2BIG;
	put_unaligned((u16)len, &f->lens[f->idx++]);
	f->pos += len;
	return 0;
}

static int put_raw(struct kfill *f, const void *p, u32 len)
{
	if (!room(f, len))
		return -E2BIG;
	memcpy(f->buf + f->pos, p, len);
	return commit(f, len);
}

/* a number stored with the size of its type (little endian) */
static __always_inline int put_num(struct kfill *f, u8 type, u64 v)
{
	u32 n = pt_size[type];
	u8 *p = f->buf + f->pos;

	if (!room(f, n))
		return -E2BIG;
	switch (n) {
	case 1:
		*p = v;
		break;
	case 2:
		put_unaligned((u16)v, (u16 *)p);
		break;
	case 4:
		put_unaligned((u32)v, (u32 *)p);
		break;
	case 8:
		put_unaligned(v, (u64 *)p);
		break;
	}
	return commit(f, n);
}

static int put_str(struct kfill *f, const char *s)
{
	return put_raw(f, s, strlen(s) + 1);
}

/*
 * a NUL-terminated user string; "(NULL)" for NULL, @unreadable if it cannot
 * be read (the reference writes "(NULL)" in the open calls' enter events and
 * drops the other events: "<NA>" there)
 */
static int put_ustr(struct kfill *f, unsigned long uaddr, const char *unreadable)
{
	long n;
	u32 max = min_t(u32, KMOD_MAX_PATH, f->cap - f->pos);

	if (!uaddr)
		return put_str(f, "(NULL)");
	if (max == 0)
		return -E2BIG;
	pagefault_disable();
	n = strncpy_from_user(f->buf + f->pos, (const char __user *)uaddr, max);
	pagefault_enable();
	if (n < 0)
		return put_str(f, unreadable);
	if (n == max)
		n--;
	f->buf[f->pos + n] = 0;
	return commit(f, n + 1);
}

/* up to snaplen bytes of user memory */
static int put_ubuf(struct kfill *f, unsigned long uaddr, long len)
{
	if (len <= 0 || !uaddr)
		return put_raw(f, NULL, 0);
	len = min_t(long, len, f->snaplen);
	if (!room(f, len))
		return -E2BIG;
	if (copy_from_user_nofault(f->buf + f->pos, (const void __user *)uaddr, len))
		return put_raw(f, NULL, 0);
	return commit(f, len);
}

static int put_zero(struct kfill *f, u8 type)
{
	switch (type) {
	case PT_CHARBUF: case PT_FSPATH: case PT_FSRELPATH:
		return put_str(f, "");
	case PT_FDLIST:
		return put_num(f, PT_UINT16, 0);
	default:
		return put_num(f, type, 0);
	}
}

/*
 * Arguments are written as the register holds them, as the reference driver
 * does: a C int -1 passed by glibc reads 4294967295.  Only AT_FDCWD in an fd
 * (the *at calls' dirfd) is written as -100 (the BPF driver's arg_fd()).
 */
static int put_arg(struct kfill *f, u8 type, unsigned long arg)
{
	if (type == PT_FD && (int)arg == AT_FDCWD)
		return put_num(f, type, (u64)(s64)AT_FDCWD);
	return put_num(f, type, arg);
}

static u64 syscall_clone_flags(struct kfill *f)
{
	u64 flags = 0;

	/* fork and vfork: 0, as the reference driver writes */
	switch (f->nr) {
	case __NR_clone:
		return f->args[0];
	case __NR_clone3:
		if (copy_from_user_nofault(&flags, (const void __user *)f->args[0],
					   sizeof(flags)))
			return 0;
		return flags;
	default:
		return 0;
	}
}

/*
 * PPM_CL_CHILD_IN_PIDNS: the task runs in a pid namespace other than the
 * initial one, or its children will (after unshare(CLONE_NEWPID)); the
 * parser then takes vtid/vpid from the event
 */
static u32 child_in_pidns(struct task_struct *t)
{
	struct pid_namespace *ns = task_active_pid_ns(t);

	if (ns != &init_pid_ns || (t->nsproxy && t->nsproxy->pid_ns_for_children != ns))
		return PPM_CL_CHILD_IN_PIDNS;
	return 0;
}

static int put_fd_dev(struct kfill *f, long fd)
{
	struct file *file;
	u32 dev = 0;

	if (fd >= 0) {
		file = fget_raw(fd);
		if (file) {
			dev = new_encode_dev(file_inode(file)->i_sb->s_dev);
			fput(file);
		}
	}
	return put_num(f, PT_UINT32, dev);
}

static u64 fd_ino(int fd)
{
	struct file *file = fget_raw(fd);
	u64 ino = 0;

	if (file) {
		ino = file_inode(file)->i_ino;
		fput(file);
	}
	return ino;
}

static int read_user_fds(unsigned long uaddr, int fds[2])
{
	return copy_from_user_nofault(fds, (const void __user *)uaddr,
				      2 * sizeof(int)) ? -EFAULT : 0;
}

static int put_pair_fd(struct kfill *f, unsigned long uaddr, int which)
{
	int fds[2] = { -1, -1 };

	if (f->ret >= 0)
		read_user_fds(uaddr, fds);
	return put_num(f, PT_FD, (s64)fds[which]);
}

static int put_pipe_ino(struct kfill *f, unsigned long ufds)
{
	int fds[2];
	u64 ino = 0;

	if (f->ret >= 0 && !read_user_fds(ufds, fds))
		ino = fd_ino(fds[0]);
	return put_num(f, PT_UINT64, ino);
}

/* struct sockaddr from user memory, in the PT_SOCKADDR encoding */
static int put_sockaddr(struct kfill *f, unsigned long uaddr, unsigned long ulen)
{
	struct sockaddr_storage ss;
	u8 out[1 + sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	u32 len = min_t(unsigned long, ulen, sizeof(ss));
	u32 n = 0;

	memset(&ss, 0, sizeof(ss));
	if (!uaddr || len < 2 ||
	    copy_from_user_nofault(&ss, (const void __user *)uaddr, len))
		return put_raw(f, NULL, 0);
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		u16 port = ntohs(in->sin_port);

		out[0] = PPM_AF_INET;
		memcpy(out + 1, &in->sin_addr.s_addr, 4);
		memcpy(out + 5, &port, 2);
		n = 7;
	} else if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
		u16 port = ntohs(in6->sin6_port);

		out[0] = PPM_AF_INET6;
		memcpy(out + 1, &in6->sin6_addr, 16);
		memcpy(out + 17, &port, 2);
		n = 19;
	} else if (ss.ss_family == AF_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;
		const char *p = un->sun_path;
		u32 plen = len > 2 ? len - 2 : 0;

		if (plen && p[0] == 0) {
			p++;
			plen--;
		}
		plen = strnlen(p, plen);
		out[0] = PPM_AF_UNIX;
		memcpy(out + 1, p, plen);
		out[1 + plen] = 0;
		n = plen + 2;
	}
	return put_raw(f, out, n);
}

static void put16(u8 *p, u16 v)
{
	memcpy(p, &v, 2);
}

/* @upath: the path the caller connected to (connect), else NULL */
static u32 unix_tuple(struct sock *sk, u8 *out, bool inbound, const char *upath)
{
	struct unix_sock *us = unix_sk(sk);
	struct sock *peer = us->peer;
	struct unix_address *addr = us->addr;
	u64 local = (u64)(unsigned long)sk, remote = (u64)(unsigned long)peer;
	const char *path = "";
	u32 plen = 0;

	if (!addr && peer)
		addr = unix_sk(peer)->addr;
	if (upath) {
		path = upath[0] ? upath : upath + 1;
		plen = strnlen(path, UNIX_PATH_MAX - 1);
	} else if (addr && addr->len > (int)sizeof(short)) {
		path = addr->name->sun_path;
		plen = addr->len - sizeof(short);
		if (path[0] == 0) {
			path++;
			plen--;
		}
		plen = strnlen(path, min_t(u32, plen, UNIX_PATH_MAX));
	}
	out[0] = PPM_AF_UNIX;
	memcpy(out + 1, inbound ? &local : &remote, 8);
	memcpy(out + 9, inbound ? &remote : &local, 8);
	memcpy(out + 17, path, plen);
	out[17 + plen] = 0;
	return 18 + plen;
}

/*
 * socket tuple of @fd; inbound: source = remote peer.  @peer: the address
 * the caller passed to connect(), which the reference driver writes as the
 * remote end instead of the socket's own (0.0.0.0 stays 0.0.0.0)
 */
static int put_tuple(struct kfill *f, long fd, bool inbound, const struct sockaddr_storage *peer)
{
	u8 out[18 + UNIX_PATH_MAX + 1];
	struct socket *sock;
	struct sock *sk;
	int err;
	u32 n = 0;

	if (fd < 0)
		return put_raw(f, NULL, 0);
	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return put_raw(f, NULL, 0);
	sk = sock->sk;
	if (sk && sk->sk_family == AF_INET) {
		struct inet_sock *inet = inet_sk(sk);
		__be32 la = inet->inet_rcv_saddr ? inet->inet_rcv_saddr : inet->inet_saddr;
		__be32 ra = inet->inet_daddr;
		u16 lp = ntohs(inet->inet_sport), rp = ntohs(inet->inet_dport);

		if (peer) {
			ra = ((const struct sockaddr_in *)peer)->sin_addr.s_addr;
			rp = ntohs(((const struct sockaddr_in *)peer)->sin_port);
		}

		out[0] = PPM_AF_INET;
		memcpy(out + 1, inbound ? &ra : &la, 4);
		put16(out + 5, inbound ? rp : lp);
		memcpy(out + 7, inbound ? &la : &ra, 4);
		put16(out + 11, inbound ? lp : rp);
		n = 13;
#if IS_ENABLED(CONFIG_IPV6)
	} else if (sk && sk->sk_family == AF_INET6) {
		struct inet_sock *inet = inet_sk(sk);
		const struct in6_addr *la = &sk->sk_v6_rcv_saddr;
		const struct in6_addr *ra = &sk->sk_v6_daddr;
		u16 lp = ntohs(inet->inet_sport), rp = ntohs(inet->inet_dport);

		if (peer) {
			ra = &((const struct sockaddr_in6 *)peer)->sin6_addr;
			rp = ntohs(((const struct sockaddr_in6 *)peer)->sin6_port);
		}

		out[0] = PPM_AF_INET6;
		memcpy(out + 1, inbound ? ra : la, 16);
		put16(out + 17, inbound ? rp : lp);
		memcpy(out + 19, inbound ? la : ra, 16);
		put16(out + 35, inbound ? lp : rp);
		n = 37;
#endif
	} else if (sk && sk->sk_family == AF_UNIX) {
		n = unix_tuple(sk, out, inbound,
			       peer ? ((const struct sockaddr_un *)peer)->sun_path : NULL);
	}
	sockfd_put(sock);
	return put_raw(f, out, n);
}

/* connect exit: the tuple with the address the caller passed, as the reference */
static int put_connect_tuple(struct kfill *f)
{
	struct sockaddr_storage ss;
	u32 len = min_t(unsigned long, f->args[2], sizeof(ss) - 1);

	memset(&ss, 0, sizeof(ss));
	if ((int)f->args[0] < 0 || !f->args[1] || !len ||
	    copy_from_user_nofault(&ss, (const void __user *)f->args[1], len))
		return put_raw(f, NULL, 0);
	return put_tuple(f, (int)f->args[0], false, &ss);
}

/*
 * Did a sending or receiving call get an address?  As the reference driver,
 * sendto/sendmsg (enter) and recvfrom/recvmsg (exit, when they succeeded)
 * carry a tuple only then: send()/recv() on a connected socket have none.
 */
static bool call_has_addr(struct kfill *f, u8 src)
{
	unsigned long uaddr, len;
	struct user_msghdr mh;
	int ulen;

	switch (src) {
	case FS_TUPLE_TO:		/* sendto(fd, buf, len, flags, addr, addrlen) */
		uaddr = f->args[4];
		len = f->args[5];
		break;
	case FS_TUPLE_FROM:		/* recvfrom(fd, buf, len, flags, addr, &addrlen) */
		if (f->ret < 0 || !f->args[4] || !f->args[5] ||
		    copy_from_user_nofault(&ulen, (const void __user *)f->args[5], sizeof(ulen)))
			return false;
		return ulen >= 0 && ulen <= (int)sizeof(struct sockaddr_storage);
	default:			/* sendmsg/recvmsg(fd, msghdr, flags) */
		if ((src == FS_TUPLE_MSG_FROM && f->ret < 0) ||
		    copy_from_user_nofault(&mh, (const void __user *)f->args[1], sizeof(mh)))
			return false;
		uaddr = (unsigned long)mh.msg_name;
		len = mh.msg_namelen;
		break;
	}
	return uaddr && len && len <= sizeof(struct sockaddr_storage);
}

static int read_iov(struct kfill *f, unsigned long uaddr, unsigned long cnt,
		    struct iovec *iov)
{
	cnt = min_t(unsigned long, cnt, KMOD_MAX_IOV);
	if (!uaddr || copy_from_user_nofault(iov, (const void __user *)uaddr,
					     cnt * sizeof(*iov)))
		return 0;
	return cnt;
}

static u32 iov_total(struct kfill *f, unsigned long uiov, unsigned long cnt)
{
	struct iovec iov[KMOD_MAX_IOV];
	int i, n = read_iov(f, uiov, cnt, iov);
	u32 total = 0;

	for (i = 0; i < n; i++)
		total += iov[i].iov_len;
	return total;
}

/*
 * the size of a read into an iovec array of @total bytes: the bytes read,
 * the whole total when the call failed (the reference's rule)
 */
static u32 read_size(struct kfill *f, u32 total)
{
	return f->ret >= 0 && total > f->ret ? f->ret : total;
}

/* the first @len bytes (up to the snaplen) of an iovec array */
static int put_iov_data(struct kfill *f, unsigned long uiov, unsigned long cnt, long len)
{
	struct iovec iov[KMOD_MAX_IOV];
	int i, n = read_iov(f, uiov, cnt, iov);
	long want = min_t(long, len, f->snaplen);
	u32 got = 0;

	if (want <= 0 || !room(f, want))
		return put_raw(f, NULL, 0);
	for (i = 0; i < n && got < want; i++) {
		u32 c = min_t(u64, iov[i].iov_len, want - got);

		if (copy_from_user_nofault(f->buf + f->pos + got, iov[i].iov_base, c))
			break;
		got += c;
	}
	return commit(f, got);
}

/* the iovec array of the struct msghdr at @umsg */
static void msg_iov(unsigned long umsg, unsigned long *uiov, unsigned long *cnt)
{
	struct user_msghdr mh;

	*uiov = 0;
	*cnt = 0;
	if (umsg && !copy_from_user_nofault(&mh, (const void __user *)umsg, sizeof(mh))) {
		*uiov = (unsigned long)mh.msg_iov;
		*cnt = mh.msg_iovlen;
	}
}

static int put_msg_iov(struct kfill *f, u8 src, unsigned long umsg)
{
	unsigned long uiov, cnt;

	msg_iov(umsg, &uiov, &cnt);
	if (src == FS_MSG_IOV_LEN)
		return put_num(f, PT_UINT32, iov_total(f, uiov, cnt));
	if (src == FS_MSG_IOV_LEN_READ)
		return put_num(f, PT_UINT32, read_size(f, iov_total(f, uiov, cnt)));
	return put_iov_data(f, uiov, cnt, src == FS_MSG_IOV_DATA ? f->ret :
			    iov_total(f, uiov, cnt));
}

static u64 user_u64(unsigned long uaddr, u32 off, u64 dflt)
{
	u64 v = dflt;

	if (uaddr && copy_from_user_nofault(&v, (const void __user *)(uaddr + off), sizeof(v)))
		v = dflt;
	return v;
}

static u32 user_u32(unsigned long uaddr)
{
	u32 v = 0;

	if (uaddr && copy_from_user_nofault(&v, (const void __user *)uaddr, sizeof(v)))
		v = 0;
	return v;
}

#define KMOD_MAX_POLLFD 16	/* as the eBPF driver */

/*
 * PT_FDLIST: u16 count, then per fd an i64 fd and i16 events; with
 * @revents (poll exits) the revents of the fds that have some only, as
 * the reference
 */
static int put_fdlist(struct kfill *f, unsigned long ufds, unsigned long nfds, bool revents)
{
	struct pollfd pfd[KMOD_MAX_POLLFD];
	u32 i, k = 0, n = min_t(unsigned long, nfds, KMOD_MAX_POLLFD);
	u8 *p = f->buf + f->pos;

	if (!ufds || copy_from_user_nofault(pfd, (const void __user *)ufds, n * sizeof(pfd[0])))
		n = 0;
	if (!room(f, 2 + 10 * n))
		return -E2BIG;
	for (i = 0; i < n; i++) {
		u16 fl = revents ? pfd[i].revents : pfd[i].events;

		if (revents && !fl)
			continue;
		put_unaligned((s64)pfd[i].fd, (s64 *)(p + 2 + 10 * k));
		put_unaligned((u16)poll_to_ppm(fl), (u16 *)(p + 10 + 10 * k));
		k++;
	}
	put_unaligned((u16)k, (u16 *)p);
	return commit(f, 2 + 10 * k);
}

/* PT_DYN: a selector byte, then the value */
static int put_dyn_u64(struct kfill *f, u8 sel, u64 v)
{
	u8 out[9];

	out[0] = sel;
	memcpy(out + 1, &v, 8);
	return put_raw(f, out, 9);
}

/* the option value of setsockopt/getsockopt (optlen in argument 4), PT_DYN */
/* SOL_SOCKET options written as a u32: one bit per optname below 64 */
#define SOCKOPT_U32_NAMES 0x3ffffebcddfeeULL

/*
 * The value by the reference's rule (the BPF driver's push_sockopt_val()):
 * SO_ERROR, SO_RCVTIMEO/SNDTIMEO, SO_COOKIE, the int options of SOL_SOCKET
 * as u32, anything else (and other levels) as the raw bytes
 */
static int put_sockopt_val(struct kfill *f, unsigned long uval)
{
	u32 level = f->args[1], name = f->args[2], len = f->args[4];
	u8 out[1 + 64];
	u64 v = 0;

	if (f->nr == __NR_getsockopt) {
		len = user_u32(f->args[4]);
		if (f->ret < 0)
			uval = 0;
	}
	if (uval && copy_from_user_nofault(&v, (const void __user *)uval, sizeof(v)))
		v = 0;
	if (level == SOL_SOCKET && name == SO_ERROR)
		return put_dyn_u64(f, 1, -(s64)(s32)v);
	if (level == SOL_SOCKET && (name == SO_RCVTIMEO_OLD || name == SO_SNDTIMEO_OLD)) {
		struct __kernel_old_timeval tv = { 0, 0 };

		if (uval && copy_from_user_nofault(&tv, (const void __user *)uval, sizeof(tv)))
			memset(&tv, 0, sizeof(tv));
		return put_dyn_u64(f, 4, (u64)tv.tv_sec * NSEC_PER_SEC +
				   (u64)tv.tv_usec * NSEC_PER_USEC);
	}
	if (level == SOL_SOCKET && name == SO_COOKIE)
		return put_dyn_u64(f, 3, v);
	if (level == SOL_SOCKET && name < 64 && ((SOCKOPT_U32_NAMES >> name) & 1)) {
		out[0] = 2;
		memcpy(out + 1, &v, 4);
		return put_raw(f, out, 5);
	}
	len = min_t(u32, len, 64);
	out[0] = 0;
	if (!uval || !len || copy_from_user_nofault(out + 1, (const void __user *)uval, len))
		len = 0;
	return put_raw(f, out, 1 + len);
}

/* accept: the backlog of the listening socket (argument 0) */
static int put_accept_queue(struct kfill *f, u8 type, u8 src)
{
	struct socket *sock;
	u32 len = 0, max = 0;
	int err;

	sock = sockfd_lookup((int)f->args[0], &err);
	if (sock) {
		if (sock->sk) {
			len = READ_ONCE(sock->sk->sk_ack_backlog);
			max = READ_ONCE(sock->sk->sk_max_ack_backlog);
		}
		sockfd_put(sock);
	}
	if (src == FS_QUEUEPCT)
		return put_num(f, type, max ? len * 100 / max : 0);
	return put_num(f, type, src == FS_QUEUELEN ? len : max);
}

/* socketpair: kernel address of the first socket, or of its peer */
static int put_sock_ptr(struct kfill *f, unsigned long ufds, bool peer)
{
	struct socket *sock;
	int fds[2], err;
	u64 v = 0;

	if (f->ret >= 0 && !read_user_fds(ufds, fds)) {
		sock = sockfd_lookup(fds[0], &err);
		if (sock) {
			if (sock->sk)
				v = (u64)(unsigned long)(peer ? unix_sk(sock->sk)->peer : sock->sk);
			sockfd_put(sock);
		}
	}
	return put_num(f, PT_UINT64, v);
}

static int put_reltime(struct kfill *f, unsigned long uaddr, u64 ns)
{
	struct __kernel_timespec ts;

	if (uaddr && !copy_from_user_nofault(&ts, (const void __user *)uaddr, sizeof(ts)))
		ns = ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	return put_num(f, PT_RELTIME, ns);
}

/* argv or environ area of the current process, at most KMOD_MAX_PROC_AREA */
static u32 copy_proc_area(struct kfill *f, unsigned long start, unsigned long end)
{
	u32 len;

	if (!start || end <= start)
		return 0;
	len = min_t(unsigned long, end - start, KMOD_MAX_PROC_AREA);
	len = min_t(u32, len, f->cap - f->pos);
	if (copy_from_user_nofault(f->buf + f->pos, (const void __user *)start, len))
		return 0;
	if (len)
		f->buf[f->pos + len - 1] = 0;
	return len;
}

/* exe (argv[0]) and, when next, args: contiguous in the argv area */
static int put_exe(struct kfill *f)
{
	struct mm_struct *mm = f->task->mm;
	u32 len = 0, exe_len;

	if (mm)
		len = copy_proc_area(f, mm->arg_start, mm->arg_end);
	if (!len) {
		f->args_rest = 0;
		return put_str(f, f->task->comm);
	}
	exe_len = strnlen(f->buf + f->pos, len) + 1;
	f->args_rest = len - exe_len;
	return commit(f, exe_len);
}

static int put_env(struct kfill *f)
{
	struct mm_struct *mm = f->task->mm;
	u32 len = 0;

	if (mm)
		len = copy_proc_area(f, mm->env_start, mm->env_end);
	return commit(f, len);
}

static u64 mm_kb(struct mm_struct *mm, int what)
{
	if (!mm)
		return 0;
	switch (what) {
	case 0:
		return mm->total_vm << (PAGE_SHIFT - 10);
	case 1:
		return get_mm_rss(mm) << (PAGE_SHIFT - 10);
	default:
		return get_mm_counter(mm, MM_SWAPENTS) << (PAGE_SHIFT - 10);
	}
}

/*
 * The working directory, "" when it cannot be named (as the BPF driver).
 * Read as getcwd() reads it: fs->pwd under its seqcount and RCU, no lock
 * and no reference taken (dentries and mounts are freed after a grace
 * period).  Never fs->lock: a spinlock_t sleeps on PREEMPT_RT, and
 * preemption is off here.  For the same reason the bare seqcount_t is
 * read, without waiting: on PREEMPT_RT the seqcount_spinlock_t read takes
 * fs->lock while a writer is in, and a writer preempted on this CPU cannot
 * go on.  A chdir() under way in another thread of the task gives "".
 */
#define CWD_TRIES 4

static int put_cwd(struct kfill *f)
{
	struct fs_struct *fs = f->task->fs;
	struct path pwd;
	unsigned int seq;
	int tries;
	char *p = ERR_PTR(-EAGAIN);

	if (!fs || f->pos + 2 > f->cap)
		return put_str(f, "");
	rcu_read_lock();
	for (tries = 0; tries < CWD_TRIES; tries++) {
		seq = raw_read_seqcount(&fs->seq.seqcount);
		if (seq & 1)
			continue;
		pwd = fs->pwd;
		if (!read_seqcount_retry(&fs->seq.seqcount, seq)) {
			p = d_path(&pwd, f->buf + f->pos,
				   min_t(u32, f->cap - f->pos, PATH_MAX));
			break;
		}
	}
	rcu_read_unlock();
	if (IS_ERR(p))
		return put_str(f, "");
	return put_raw(f, p, strlen(p) + 1);	/* d_path writes at the end */
}

/* the subsystems the kernel was built with, in cgroup id order */
#define SUBSYS(_x) { #_x, _x ## _cgrp_id },
static const struct {
	const char *name;
	int id;
} cgroup_subsystems[] = {
#include <linux/cgroup_subsys.h>
};
#undef SUBSYS

/*
 * "subsys=path\0" for every subsystem: the path of the cgroup the task's
 * css of that subsystem belongs to (its v1 hierarchy, or the v2 cgroup
 * where the controller is enabled), as the reference driver writes them
 */
static int put_cgroups(struct kfill *f)
{
	u32 start = f->pos, i;
	int n;

	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(cgroup_subsystems); i++) {
		struct cgroup_subsys_state *css = task_css(f->task, cgroup_subsystems[i].id);
		u32 len = strlen(cgroup_subsystems[i].name);

		if (!css || !css->cgroup)
			continue;
		if (f->pos + len + 3 > f->cap)
			break;
		memcpy(f->buf + f->pos, cgroup_subsystems[i].name, len);
		f->buf[f->pos + len] = '=';
		n = cgroup_path(css->cgroup, f->buf + f->pos + len + 1, f->cap - f->pos - len - 1);
		if (n < 0 || f->pos + len + 1 + n + 1 > f->cap)
			break;
		f->pos += len + 1 + n + 1;
	}
	rcu_read_unlock();
	n = f->pos - start;
	f->pos = start;
	return commit(f, n);
}

/* the controlling tty as new_encode_dev(), 0 for none (protected reads) */
static u32 task_tty_nr(struct task_struct *t)
{
	struct tty_struct *tty = NULL;
	struct tty_driver *driver = NULL;
	int major, minor_start, index;

	if (!t->signal || copy_from_kernel_nofault(&tty, &t->signal->tty, sizeof(tty)) || !tty)
		return 0;
	if (copy_from_kernel_nofault(&index, &tty->index, sizeof(index)) ||
	    copy_from_kernel_nofault(&driver, &tty->driver, sizeof(driver)) || !driver ||
	    copy_from_kernel_nofault(&major, &driver->major, sizeof(major)) ||
	    copy_from_kernel_nofault(&minor_start, &driver->minor_start, sizeof(minor_start)))
		return 0;
	return new_encode_dev(MKDEV(major, minor_start) + index);
}

static s64 loginuid(struct task_struct *t)
{
#ifdef CONFIG_AUDIT
	kuid_t uid = audit_get_loginuid(t);

	if (uid_valid(uid))
		return from_kuid(&init_user_ns, uid);
#endif
	return -1;
}

/*
 * PPM_EXE_WRITABLE, the reference's rule: the task may write its executable
 * or owns it (or has CAP_FOWNER).  generic_permission() without blocking
 * (preemption is off here) plus the read-only and immutable checks
 * inode_permission() would add.
 */
static bool exe_writable(struct task_struct *t)
{
	struct file *exe;
	struct inode *inode;
	bool w = false;

	if (!t->mm)
		return false;
	/* at execve exit only the task itself can change its exe_file */
	rcu_read_lock();
	exe = rcu_dereference(t->mm->exe_file);
	if (exe) {
		inode = file_inode(exe);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
		w = inode_owner_or_capable(&nop_mnt_idmap, inode) ||
		    (!sb_rdonly(inode->i_sb) && !IS_IMMUTABLE(inode) &&
		     !generic_permission(&nop_mnt_idmap, inode, MAY_WRITE | MAY_NOT_BLOCK));
#else
		w = inode_owner_or_capable(&init_user_ns, inode) ||
		    (!sb_rdonly(inode->i_sb) && !IS_IMMUTABLE(inode) &&
		     !generic_permission(&init_user_ns, inode, MAY_WRITE | MAY_NOT_BLOCK));
#endif
	}
	rcu_read_unlock();
	return w;
}

static int put_proc(struct kfill *f, u8 type, u8 src)
{
	struct task_struct *t = f->task;
	struct task_struct *parent;
	u64 v = 0;

	switch (src) {
	case FS_EXE:
		return put_exe(f);
	case FS_ARGS:
		return commit(f, f->args_rest);
	case FS_ENV:
		return put_env(f);
	case FS_COMM:
		return put_str(f, t->comm);
	case FS_CWD:
		return put_cwd(f);
	case FS_CGROUPS:
		return put_cgroups(f);
	case FS_TID:
		v = t->pid;
		break;
	case FS_PID:
		v = t->tgid;
		break;
	case FS_PTID:
		rcu_read_lock();
		parent = rcu_dereference(t->real_parent);
		v = parent ? parent->pid : 0;
		rcu_read_unlock();
		break;
	case FS_FDLIMIT:
		v = task_rlimit(t, RLIMIT_NOFILE);
		break;
	case FS_PGFT_MAJ:
		v = t->maj_flt;
		break;
	case FS_PGFT_MIN:
		v = t->min_flt;
		break;
	case FS_VM_SIZE:
		v = mm_kb(t->mm, 0);
		break;
	case FS_VM_RSS:
		v = mm_kb(t->mm, 1);
		break;
	case FS_VM_SWAP:
		v = mm_kb(t->mm, 2);
		break;
	case FS_TTY:
		v = task_tty_nr(t);
		break;
	case FS_PGID:
		v = task_pgrp_nr_ns(t, &init_pid_ns);
		break;
	case FS_LOGINUID:
		v = loginuid(t);
		break;
	case FS_EUID:
		v = from_kuid_munged(&init_user_ns, task_euid(t));
		break;
	case FS_EGID:
		v = from_kgid_munged(&init_user_ns, task_cred_xxx(t, egid));
		break;
	case FS_VTID:
		v = task_pid_vnr(t);
		break;
	case FS_VPID:
		v = task_tgid_vnr(t);
		break;
	}
	return put_num(f, type, v);
}

/* mode of argument @arg, kept when the flags of argument @arg - 1 create a file */
static int put_open_mode(struct kfill *f, u32 arg)
{
	return put_num(f, PT_UINT32, open_mode_to_ppm(f->args[arg ? arg - 1 : 0], f->args[arg]));
}

static int put_exit_info(struct kfill *f, u8 type, u8 src)
{
	int code = f->task->exit_code;

	switch (src) {
	case FS_EXIT_STATUS:
		return put_num(f, type, (s64)code);
	case FS_EXIT_RET:
		return put_num(f, type, (s64)((code >> 8) & 0xff));
	case FS_EXIT_SIG:
		return put_num(f, type, code & 0x7f);
	default:
		return put_num(f, type, (code & 0x80) ? 1 : 0);
	}
}

static int put_param(struct kfill *f, const struct fill_param *p)
{
	unsigned long a = f->args[p->arg < 6 ? p->arg : 5];
	unsigned long next = f->args[p->arg < 5 ? p->arg + 1 : 5];

	switch (p->src) {
	case FS_RET:
		return put_num(f, p->type, (u64)f->ret);
	case FS_ARG:
		return put_arg(f, p->type, a);
	case FS_ARG_INT:
		return put_num(f, p->type, (u64)(s64)(int)a);
	case FS_EXE_FLAGS:
		return put_num(f, p->type,
			       f->ret >= 0 && exe_writable(f->task) ? PPM_EXE_WRITABLE : 0);
	case FS_USTR:
		return put_ustr(f, a, "<NA>");
	case FS_USTR_NULL:
		return put_ustr(f, a, "(NULL)");
	case FS_UBUF_STR:
		return f->ret > 0 ? put_ustr(f, a, "<NA>") : put_str(f, "");
	case FS_UBUF_RET:
		return put_ubuf(f, a, f->ret);
	case FS_UBUF_SIZE:
		return put_ubuf(f, a, next);
	case FS_OPEN_FLAGS:
		return put_num(f, p->type, open_flags_to_ppm(a));
	case FS_OPEN_MODE:
		return put_open_mode(f, p->arg);
	case FS_MODE:
		return put_num(f, p->type, a & 07777);
	case FS_MMAP_FLAGS:
		return put_num(f, p->type, mmap_flags_to_ppm(a));
	case FS_FCNTL_CMD:
		return put_num(f, p->type, fcntl_to_ppm(a));
	case FS_SEMGET_FLAGS:
		return put_num(f, p->type, semget_flags_to_ppm(a));
	case FS_U32_AT:
		return put_num(f, p->type, user_u32(a));
	case FS_U64_AT:
		return put_num(f, p->type, user_u64(a, 0, 0));
	case FS_RLIM_CUR:
	case FS_RLIM_MAX:
		/* -1 when the call failed, but prlimit's old limit (argument 3) */
		return put_num(f, p->type, f->ret < 0 && p->arg != 3 ? -1 :
			       user_u64(a, p->src == FS_RLIM_MAX ? 8 : 0, -1));
	case FS_HOW_FLAGS:
		return put_num(f, p->type, open_flags_to_ppm(user_u64(a, 0, 0)));
	case FS_HOW_MODE:
		return put_num(f, p->type, open_mode_to_ppm(user_u64(a, 0, 0), user_u64(a, 8, 0)));
	case FS_HOW_RESOLVE:
		return put_num(f, p->type, resolve_to_ppm(user_u64(a, 16, 0)));
	case FS_FD_DEV:
		return put_fd_dev(f, f->ret);
	case FS_FD_PAIR0:
	case FS_FD_PAIR1:
		return put_pair_fd(f, a, p->src == FS_FD_PAIR1);
	case FS_PIPE_INO:
		return put_pipe_ino(f, a);
	case FS_SOCK_PTR0:
	case FS_SOCK_PTR1:
		return put_sock_ptr(f, a, p->src == FS_SOCK_PTR1);
	case FS_SOCKADDR:
		return put_sockaddr(f, a, next);
	case FS_TUPLE_OUT:
		return put_tuple(f, (int)a, false, NULL);
	case FS_TUPLE_CONNECT:
		return put_connect_tuple(f);
	case FS_TUPLE_TO:
	case FS_TUPLE_MSG_TO:
		return call_has_addr(f, p->src) ? put_tuple(f, (int)a, false, NULL) : put_raw(f, NULL, 0);
	case FS_TUPLE_FROM:
	case FS_TUPLE_MSG_FROM:
		return call_has_addr(f, p->src) ? put_tuple(f, (int)a, true, NULL) : put_raw(f, NULL, 0);
	case FS_TUPLE_RET:
		return put_tuple(f, f->ret, true, NULL);
	case FS_QUEUEPCT:
	case FS_QUEUELEN:
	case FS_QUEUEMAX:
		return put_accept_queue(f, p->type, p->src);
	case FS_IOV_LEN:
		return put_num(f, PT_UINT32, iov_total(f, a, next));
	case FS_IOV_LEN_READ:
		return put_num(f, PT_UINT32, read_size(f, iov_total(f, a, next)));
	case FS_IOV_DATA:
		return put_iov_data(f, a, next, f->ret);
	case FS_IOV_DATA_ALL:
		return put_iov_data(f, a, next, iov_total(f, a, next));
	case FS_MSG_IOV_LEN:
	case FS_MSG_IOV_LEN_READ:
	case FS_MSG_IOV_DATA:
	case FS_MSG_IOV_DATA_ALL:
		return put_msg_iov(f, p->src, a);
	case FS_FDLIST_IN:
	case FS_FDLIST_OUT:
		return put_fdlist(f, a, next, p->src == FS_FDLIST_OUT);
	case FS_PPOLL_TIMEOUT:
		return put_reltime(f, a, -1);
	case FS_RELTIME:
		return put_reltime(f, a, 0);
	case FS_SOCKOPT_LEVEL:
		return put_num(f, p->type, a == SOL_SOCKET ? 1 : a == SOL_TCP ? 2 : 0);
	case FS_SOCKOPT_NAME:
		return put_num(f, p->type, f->args[1] == SOL_SOCKET && a <= 53 ? a : 0);
	case FS_SOCKOPT_VAL:
		return put_sockopt_val(f, a);
	case FS_PTRACE_REQ:
		return put_num(f, p->type, ptrace_to_ppm(a));
	case FS_PTRACE_ADDR:
	case FS_PTRACE_DATA:
		return put_dyn_u64(f, 0, a);
	case FS_BPF_RES_OR_FD:
		/* maps and programs: an fd, else a result */
		return put_dyn_u64(f, f->ret >= 0 && (f->args[0] == 0 || f->args[0] == 5) ? 0 : 1,
				   f->ret);
	case FS_SC_ID:
		return put_num(f, p->type, f->sc);
	case FS_NATIVE_ID:
		return put_num(f, p->type, f->nr);
	case FS_CLONE_FLAGS:
		return put_num(f, p->type, clone_flags_to_ppm(syscall_clone_flags(f)) |
			       child_in_pidns(f->task));
	case FS_EXIT_STATUS:
	case FS_EXIT_RET:
	case FS_EXIT_SIG:
	case FS_EXIT_CORE:
		return put_exit_info(f, p->type, p->src);
	case FS_ZERO:
		return put_zero(f, p->type);
	default:
		return put_proc(f, p->type, p->src);
	}
}

int kmod_fill_event(struct kfill *f, u16 type)
{
	const struct fill_event *ev = &g_fill_events[type];
	struct ppm_evt_hdr hdr;
	u32 i, hlen = PPM_EVT_HDR_LEN + ev->nparams * sizeof(u16);
	int err;

	if (f->cap < hlen)
		return -E2BIG;
	f->lens = (u16 *)(f->buf + PPM_EVT_HDR_LEN);
	f->pos = hlen;
	f->idx = 0;
	f->args_rest = 0;
	for (i = 0; i < ev->nparams; i++) {
		err = put_param(f, &ev->p[i]);
		if (err)
			return err;
	}
	hdr.ts = f->ts ? f->ts : ktime_get_real_ns();
	hdr.tid = f->task->pid;
	hdr.len = f->pos;
	hdr.type = type;
	hdr.nparams = ev->nparams;
	memcpy(f->buf, &hdr, PPM_EVT_HDR_LEN);
	return f->pos;
}
