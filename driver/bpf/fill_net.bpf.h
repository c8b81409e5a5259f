/*
 * fill_net.bpf.h - socket fillers: connect, bind, accept(4), sendto,
 * recvfrom, sendmsg, recvmsg, socketpair.  Addresses are encoded as in
 * docs/event_table.md (PT_SOCKADDR, PT_SOCKTUPLE): IPs in network
 * order, ports in host order, families in PPM numbering (= Linux's for
 * unix/inet/inet6).  The sending/receiving calls carry a tuple only when
 * they were given an address (push_call_tuple), as the reference driver.
 */
#ifndef FILL_NET_BPF_H
#define FILL_NET_BPF_H

static __always_inline struct sock *fd_sock(__s64 fd)
{
	struct file *f = fd_file(fd);
	struct socket *so;

	if (!f)
		return NULL;
	if ((BPF_CORE_READ(f, f_inode, i_mode) & LX_S_IFMT) != LX_S_IFSOCK)
		return NULL;
	so = BPF_CORE_READ(f, private_data);
	return so ? BPF_CORE_READ(so, sk) : NULL;
}

/* user sockaddr (len bytes) -> PT_SOCKADDR */
static __always_inline void push_usockaddr(struct bld *b, __u64 uaddr, __u32 len)
{
	struct __kernel_sockaddr_storage ss = {};
	__u8 *p = bpos(b, b->off);
	__u16 fam;

	if (!uaddr || len < 2) {
		push_empty(b);
		return;
	}
	if (len > sizeof(ss))
		len = sizeof(ss);
	if (bpf_probe_read_user(&ss, BOUND(len, 127), (void *)uaddr)) {
		push_empty(b);
		return;
	}
	fam = ss.ss_family;
	if (fam == LX_AF_INET) {
		struct sockaddr_in *in = (void *)&ss;

		p[0] = LX_AF_INET;
		*(__u32 *)(p + 1) = in->sin_addr.s_addr;
		*(__u16 *)(p + 5) = bpf_ntohs(in->sin_port);
		param_done(b, 7);
	} else if (fam == LX_AF_INET6) {
		struct sockaddr_in6 *in6 = (void *)&ss;

		p[0] = LX_AF_INET6;
		__builtin_memcpy(p + 1, &in6->sin6_addr, 16);
		*(__u16 *)(p + 17) = bpf_ntohs(in6->sin6_port);
		param_done(b, 19);
	} else if (fam == LX_AF_UNIX) {
		struct sockaddr_un *un = (void *)&ss;
		long n;

		p[0] = LX_AF_UNIX;
		n = bpf_probe_read_kernel_str(p + 1, sizeof(un->sun_path),
					      un->sun_path[0] ? un->sun_path : un->sun_path + 1);
		param_done(b, n > 0 ? 1 + n : 1);
	} else {
		push_empty(b);
	}
}

/*
 * remote address of a user sockaddr: family, ip (v4 in ip[0]) and port;
 * upath: the user's sun_path (connect on a unix socket), else 0
 */
struct peer {
	__u16 fam;
	__u16 port;
	__u32 ip[4];
	__u64 upath;
};

static __always_inline int read_upeer(struct peer *pe, __u64 uaddr, __u32 len)
{
	struct sockaddr_in6 sa = {};

	if (!uaddr)
		return -1;
	if (len < sizeof(struct sockaddr_in))
		return -1;
	if (len > sizeof(sa))
		len = sizeof(sa);
	if (bpf_probe_read_user(&sa, BOUND(len, 31), (void *)uaddr))
		return -1;
	pe->fam = sa.sin6_family;
	pe->port = bpf_ntohs(sa.sin6_port);
	if (pe->fam == LX_AF_INET)
		pe->ip[0] = ((struct sockaddr_in *)&sa)->sin_addr.s_addr;
	else if (pe->fam == LX_AF_INET6)
		__builtin_memcpy(pe->ip, &sa.sin6_addr, 16);
	else
		return -1;
	return 0;
}

/*
 * PT_SOCKTUPLE of sk.  inbound: source = remote, destination = local.
 * pe (optional) overrides the remote end (unconnected UDP).
 */
static __always_inline void push_tuple(struct bld *b, struct sock *sk, struct peer *pe, int inbound)
{
	__u8 *p = bpos(b, b->off);
	__u16 fam, lport, rport;

	if (!sk) {
		push_empty(b);
		return;
	}
	fam = BPF_CORE_READ(sk, __sk_common.skc_family);
	lport = BPF_CORE_READ(sk, __sk_common.skc_num);
	rport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	if (fam == LX_AF_INET) {
		__u32 lip = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
		__u32 rip = BPF_CORE_READ(sk, __sk_common.skc_daddr);

		if (pe && pe->fam == LX_AF_INET) {
			rip = pe->ip[0];
			rport = pe->port;
		}
		p[0] = LX_AF_INET;
		*(__u32 *)(p + 1) = inbound ? rip : lip;
		*(__u16 *)(p + 5) = inbound ? rport : lport;
		*(__u32 *)(p + 7) = inbound ? lip : rip;
		*(__u16 *)(p + 11) = inbound ? lport : rport;
		param_done(b, 13);
	} else if (fam == LX_AF_INET6) {
		struct in6_addr lip = BPF_CORE_READ(sk, __sk_common.skc_v6_rcv_saddr);
		struct in6_addr rip = BPF_CORE_READ(sk, __sk_common.skc_v6_daddr);

		if (pe && pe->fam == LX_AF_INET6) {
			__builtin_memcpy(&rip, pe->ip, 16);
			rport = pe->port;
		}
		p[0] = LX_AF_INET6;
		__builtin_memcpy(p + 1, inbound ? &rip : &lip, 16);
		*(__u16 *)(p + 17) = inbound ? rport : lport;
		__builtin_memcpy(p + 19, inbound ? &lip : &rip, 16);
		*(__u16 *)(p + 35) = inbound ? lport : rport;
		param_done(b, 37);
	} else if (fam == LX_AF_UNIX) {
		struct unix_sock *us = (void *)sk;
		struct sock *peer = BPF_CORE_READ(us, peer);
		struct unix_address *ua = BPF_CORE_READ(us, addr);
		long n = 0;

		if (!ua && peer)
			ua = BPF_CORE_READ((struct unix_sock *)peer, addr);
		p[0] = LX_AF_UNIX;
		*(__u64 *)(p + 1) = inbound ? (__u64)sk : (__u64)peer;
		*(__u64 *)(p + 9) = inbound ? (__u64)peer : (__u64)sk;
		if (pe && pe->upath) {
			char c0 = 0;

			bpf_probe_read_user(&c0, 1, (void *)pe->upath);
			n = bpf_probe_read_user_str(p + 17, 108, (void *)(pe->upath + (c0 ? 0 : 1)));
		} else if (ua) {
			char *path = (char *)ua->name[0].sun_path;
			char c0 = 0;

			bpf_probe_read_kernel(&c0, 1, path);
			n = bpf_probe_read_kernel_str(p + 17, 108, c0 ? path : path + 1);
		}
		if (n <= 0) {
			p[17] = 0;
			n = 1;
		}
		param_done(b, 17 + n);
	} else {
		push_empty(b);
	}
}

static __always_inline __s64 sfd(struct call_ctx *c)
{
	return arg_fd(c->args[0]);
}

/*
 * The tuple of sendto/sendmsg (enter) and recvfrom/recvmsg (exit).  As the
 * reference driver, only when the caller passed an address (has_addr) of at
 * most a sockaddr_storage, else empty: a send()/recv() on a connected socket
 * has no tuple (and costs no socket lookup).
 */
static __always_inline void push_call_tuple(struct bld *b, __s64 fd, int has_addr, __u64 uaddr,
					    __u32 len, int inbound)
{
	struct peer pe = {};

	if (!has_addr || len > sizeof(struct __kernel_sockaddr_storage)) {
		push_empty(b);
		return;
	}
	push_tuple(b, fd_sock(fd), read_upeer(&pe, uaddr, len) == 0 ? &pe : NULL, inbound);
}

/* the address length recvfrom was given (a pointer to it); ~0 if unreadable */
static __always_inline __u32 uaddr_len(__u64 ulenp)
{
	__u32 len;

	if (bpf_probe_read_user(&len, sizeof(len), (void *)ulenp))
		return ~0U;
	return len;
}

FILLER(fill_sock)
{
	struct call_ctx *c;
	struct peer pe = {};
	struct sock *sk;
	struct bld b;
	__u16 et;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	et = c->enter_type;
	switch (et) {
	case PPME_SOCKET_CONNECT_E:
		sk = fd_sock(sfd(c));
		begin_evt(&b, et);
		push_u64(&b, sfd(c));
		push_usockaddr(&b, c->args[1], c->args[2]);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		/*
		 * as the reference: the remote end is the address the caller
		 * passed (0.0.0.0 stays 0.0.0.0, a unix socket's path is the
		 * one connected to), none without an address
		 */
		pe.upath = 0;
		if (sk && BPF_CORE_READ(sk, __sk_common.skc_family) == LX_AF_UNIX &&
		    c->args[1] && c->args[2] > 2) {
			pe.fam = LX_AF_UNIX;
			pe.upath = c->args[1] + 2;
			push_tuple(&b, sk, &pe, 0);
		} else if (read_upeer(&pe, c->args[1], c->args[2]) == 0) {
			push_tuple(&b, sk, &pe, 0);
		} else {
			push_empty(&b);
		}
		break;
	case PPME_SOCKET_BIND_E:
		begin_evt(&b, et);
		push_u64(&b, sfd(c));
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_usockaddr(&b, c->args[1], c->args[2]);
		break;
	case PPME_SOCKET_ACCEPT_5_E:
	case PPME_SOCKET_ACCEPT4_5_E: {
		__u32 qlen, qmax;

		sk = fd_sock(sfd(c));
		qlen = sk ? BPF_CORE_READ(sk, sk_ack_backlog) : 0;
		qmax = sk ? BPF_CORE_READ(sk, sk_max_ack_backlog) : 0;

		if (et == PPME_SOCKET_ACCEPT4_5_E) {
			/* flags: 0, as the reference driver writes */
			begin_evt(&b, et);
			push_u32(&b, 0);
		} else {
			begin_evt(&b, et);
		}
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_tuple(&b, c->ret >= 0 ? fd_sock(c->ret) : NULL, NULL, 1);
		push_u8(&b, qmax ? qlen * 100 / qmax : 0);
		push_u32(&b, qlen);
		push_u32(&b, qmax);
		break;
	}
	case PPME_SOCKET_SENDTO_E:
		begin_evt(&b, et);
		push_u64(&b, sfd(c));
		push_u32(&b, c->args[2]);
		push_call_tuple(&b, sfd(c), c->args[4] && c->args[5], c->args[4], c->args[5], 0);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_data(&b, c->args[1], c->args[2]);
		break;
	case PPME_SOCKET_RECVFROM_E:
		begin_evt(&b, et);
		push_u64(&b, sfd(c));
		push_u32(&b, c->args[2]);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_data(&b, c->args[1], c->ret);
		if (c->ret >= 0 && c->args[4] && c->args[5])
			push_call_tuple(&b, sfd(c), 1, c->args[4], uaddr_len(c->args[5]), 1);
		else
			push_empty(&b);
		break;
	case PPME_SOCKET_SENDMSG_E:
	case PPME_SOCKET_RECVMSG_E: {
		struct user_msghdr mh = {};
		__u64 tot;

		bpf_probe_read_user(&mh, sizeof(mh), (void *)c->args[1]);
		tot = iov_total((__u64)mh.msg_iov, mh.msg_iovlen);
		if (et == PPME_SOCKET_SENDMSG_E) {
			begin_evt(&b, et);
			push_u64(&b, sfd(c));
			push_u32(&b, tot);
			push_call_tuple(&b, sfd(c), mh.msg_name && mh.msg_namelen,
					(__u64)mh.msg_name, mh.msg_namelen, 0);
			end_evt(&b);
			filler_enter_done(&b);
			begin_evt(&b, c->exit_type);
			push_u64(&b, c->ret);
			push_iov_data(&b, (__u64)mh.msg_iov, mh.msg_iovlen, tot);
		} else {
			begin_evt(&b, et);
			push_u64(&b, sfd(c));
			end_evt(&b);
			filler_enter_done(&b);
			begin_evt(&b, c->exit_type);
			push_u64(&b, c->ret);
			push_u32(&b, read_size(tot, c->ret));
			push_iov_data(&b, (__u64)mh.msg_iov, mh.msg_iovlen, c->ret);
			push_call_tuple(&b, sfd(c), c->ret >= 0 && mh.msg_name && mh.msg_namelen,
					(__u64)mh.msg_name, mh.msg_namelen, 1);
		}
		break;
	}
	case PPME_SOCKET_SOCKETPAIR_E: {
		int fds[2] = { -1, -1 };
		struct sock *s0 = NULL, *s1 = NULL;

		begin_evt(&b, et);
		push_u32(&b, c->args[0]);
		push_u32(&b, c->args[1]);
		push_u32(&b, c->args[2]);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		if (c->ret >= 0 && !bpf_probe_read_user(fds, sizeof(fds), (void *)c->args[3])) {
			s0 = fd_sock(fds[0]);
			s1 = s0 ? BPF_CORE_READ((struct unix_sock *)s0, peer) : NULL;
		}
		push_u64(&b, (__s64)fds[0]);
		push_u64(&b, (__s64)fds[1]);
		push_u64(&b, (__u64)s0);
		push_u64(&b, (__u64)s1);
		break;
	}
	default:
		return 0;
	}
	end_evt(&b);
	return filler_submit(&b);
}

#endif
