/*
 * fill_misc.bpf.h - fillers with special encodings: poll/ppoll (PT_FDLIST),
 * setsockopt/getsockopt, bpf and ptrace (PT_DYN: selector byte + value,
 * docs/event_table.md).
 */
#ifndef FILL_MISC_BPF_H
#define FILL_MISC_BPF_H

#define MAX_POLLFD 16

/* the walk of a struct pollfd array under bpf_loop(), one fd a step */
struct fdlist_walk {
	__u64 ufds;
	__u32 off;		/* record offset of the PT_FDLIST value */
	__u32 n;		/* entries written */
	__u32 revents;		/* exit: the revents, of the fds that have some */
};

static long fdlist_step(__u32 i, void *ctx)
{
	struct fdlist_walk *w = ctx;
	struct scratch *s = get_scratch(bpf_get_smp_processor_id());
	struct pollfd pfd;
	__u8 *p;
	__u16 fl;

	if (!s || bpf_probe_read_user(&pfd, sizeof(pfd), (void *)(w->ufds + i * sizeof(pfd)))) {
		w->n = 0;
		return 1;
	}
	fl = w->revents ? pfd.revents : pfd.events;
	if (w->revents && !fl)
		return 0;
	p = s->buf + ((w->off + 2 + 10 * (w->n & (MAX_POLLFD - 1))) & HMASK);
	*(__s64 *)p = pfd.fd;
	*(__s16 *)(p + 8) = poll_to_ppm(fl);
	w->n++;
	return 0;
}

/*
 * u16 count + count x (i64 fd, i16 flags) of the first MAX_POLLFD fds;
 * enter: the events of each, exit: the revents of the fds that have some
 * (the reference lists only those)
 */
static __always_inline void push_fdlist(struct bld *b, __u64 ufds, __u64 nfds, int revents)
{
	struct fdlist_walk w = { .ufds = ufds, .off = b->off, .revents = revents };

	if (ufds && nfds)
		bpf_loop(nfds > MAX_POLLFD ? MAX_POLLFD : nfds, fdlist_step, &w, 0);
	*(__u16 *)bpos(b, b->off) = w.n;
	param_done(b, 2 + 10 * (w.n & (MAX_POLLFD * 2 - 1)));
}

/*
 * SOL_SOCKET options whose value the reference driver writes as a u32 (one
 * bit per optname below 64; the kernel module's SOCKOPT_U32_NAMES)
 */
#define SOCKOPT_U32_NAMES 0x3ffffebcddfeeULL

/*
 * PT_DYN sockopt value, by the reference's rule: SOL_SOCKET's SO_ERROR
 * (errno), SO_RCVTIMEO/SNDTIMEO (ns), SO_COOKIE (u64), its int options
 * (u32); every other option, and other levels, as the raw bytes
 */
static __always_inline void push_sockopt_val(struct bld *b, __u32 level, __u32 name, __u64 uval, __u32 len)
{
	__u8 *p = bpos(b, b->off);
	__u64 v = 0;

	if (uval)
		bpf_probe_read_user(&v, sizeof(v), (void *)uval);
	if (level == 1 && name == 4) {			/* SO_ERROR */
		p[0] = 1;
		*(__s64 *)(p + 1) = -(__s64)(__s32)v;
		param_done(b, 9);
	} else if (level == 1 && (name == 20 || name == 21)) {	/* SO_RCVTIMEO/SNDTIMEO */
		struct __kernel_old_timeval tv = {};

		if (uval)
			bpf_probe_read_user(&tv, sizeof(tv), (void *)uval);
		p[0] = 4;
		*(__u64 *)(p + 1) = tv.tv_sec * 1000000000ull + tv.tv_usec * 1000ull;
		param_done(b, 9);
	} else if (level == 1 && name == 57) {		/* SO_COOKIE */
		p[0] = 3;
		*(__u64 *)(p + 1) = v;
		param_done(b, 9);
	} else if (level == 1 && name < 64 && ((SOCKOPT_U32_NAMES >> name) & 1)) {
		p[0] = 2;
		*(__u32 *)(p + 1) = v;
		param_done(b, 5);
	} else {
		__u32 n = len > 64 ? 64 : len;

		p[0] = 0;
		if (!uval || !n || bpf_probe_read_user(p + 1, n & 127, (void *)uval))
			n = 0;
		param_done(b, 1 + (n & 127));
	}
}

FILLER(fill_misc)
{
	struct call_ctx *c;
	struct bld b;
	__u16 et;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	et = c->enter_type;
	switch (et) {
	case PPME_SYSCALL_POLL_E:
	case PPME_SYSCALL_PPOLL_E:
		if (et == PPME_SYSCALL_POLL_E) {
			begin_evt(&b, et);
			push_fdlist(&b, c->args[0], c->args[1], 0);
			push_u64(&b, (__s64)(__s32)c->args[2]);
		} else {
			struct __kernel_timespec ts = {};
			__u32 mask = 0;

			begin_evt(&b, et);
			push_fdlist(&b, c->args[0], c->args[1], 0);
			if (c->args[2] && !bpf_probe_read_user(&ts, sizeof(ts), (void *)c->args[2]))
				push_u64(&b, ts.tv_sec * 1000000000ull + ts.tv_nsec);
			else
				push_u64(&b, (__u64)-1);
			if (c->args[3])
				bpf_probe_read_user(&mask, sizeof(mask), (void *)c->args[3]);
			push_u32(&b, mask);
		}
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_fdlist(&b, c->args[0], c->args[1], 1);
		break;
	case PPME_SOCKET_SETSOCKOPT_E:
	case PPME_SOCKET_GETSOCKOPT_E: {
		__u32 level = c->args[1], name = c->args[2], len = c->args[4];

		if (et == PPME_SOCKET_GETSOCKOPT_E) {
			len = 0;
			if (c->args[4])
				bpf_probe_read_user(&len, sizeof(len), (void *)c->args[4]);
		}
		begin_evt(&b, et);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_u64(&b, arg_fd(c->args[0]));
		push_u8(&b, level == 1 ? 1 : level == 6 ? 2 : 0);
		push_u8(&b, level == 1 && name <= 53 ? name : 0);
		push_sockopt_val(&b, level, name, c->ret < 0 && et == PPME_SOCKET_GETSOCKOPT_E ? 0 : c->args[3], len);
		push_u32(&b, len);
		break;
	}
	case PPME_SYSCALL_BPF_E:
		begin_evt(&b, et);
		push_u64(&b, c->args[0]);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		/* maps and programs: an fd, else a result */
		*bpos(&b, b.off) = (c->ret >= 0 && (c->args[0] == 0 || c->args[0] == 5)) ? 0 : 1;
		*(__s64 *)(bpos(&b, b.off) + 1) = c->ret;
		param_done(&b, 9);
		break;
	case PPME_SYSCALL_PTRACE_E:
		begin_evt(&b, et);
		push_u16(&b, ptrace_to_ppm(c->args[0]));
		push_u64(&b, (__s64)(__s32)c->args[1]);
		end_evt(&b);
		filler_enter_done(&b);
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		*bpos(&b, b.off) = 0;
		*(__u64 *)(bpos(&b, b.off) + 1) = c->args[2];
		param_done(&b, 9);
		*bpos(&b, b.off) = 0;
		*(__u64 *)(bpos(&b, b.off) + 1) = c->args[3];
		param_done(&b, 9);
		break;
	default:
		return 0;
	}
	end_evt(&b);
	return filler_submit(&b);
}

#endif
