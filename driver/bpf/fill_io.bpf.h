/*
 * fill_io.bpf.h - fillers of the data-carrying calls (read/write family,
 * vectored I/O) and pipe/pipe2.  Buffers are captured up to the snaplen.
 */
#ifndef FILL_IO_BPF_H
#define FILL_IO_BPF_H

#define MAX_IOV 32		/* iovecs read, as the kernel module's KMOD_MAX_IOV */

static __always_inline __u64 snap(__u64 n)
{
	__u32 s = settings.snaplen;

	if (s > MAX_STR)
		s = MAX_STR;
	return n < s ? n : s;
}

/* data written/read: len bytes of user buffer, capped by the snaplen */
static __always_inline void push_data(struct bld *b, __u64 uptr, __s64 len)
{
	if (len <= 0) {
		push_empty(b);
		return;
	}
	push_ubuf(b, uptr, snap(len));
}

/*
 * Walks of an iovec array under bpf_loop(), one iovec a step (the verifier
 * checks the step once; 32 iovecs would not fit the BPF stack at once)
 */
struct iov_walk {
	__u64 uiov;
	__u64 tot;		/* iov_total: the lengths' sum */
	__u32 off;		/* push_iov_data: record offset of the value */
	__u32 got, want;	/* bytes copied, bytes wanted */
};

static __always_inline __u32 iov_steps(__u64 cnt)
{
	return cnt > MAX_IOV ? MAX_IOV : cnt;
}

/* an unreadable iovec array counts 0, as the module's read_iov() */
static long iov_len_step(__u32 i, void *ctx)
{
	struct iov_walk *w = ctx;
	struct iovec v;

	if (bpf_probe_read_user(&v, sizeof(v), (void *)(w->uiov + i * sizeof(v)))) {
		w->tot = 0;
		return 1;
	}
	w->tot += v.iov_len;
	return 0;
}

/* total length of an iovec array (its first MAX_IOV iovecs) */
static __always_inline __u64 iov_total(__u64 uiov, __u64 cnt)
{
	struct iov_walk w = { .uiov = uiov };

	if (uiov && cnt)
		bpf_loop(iov_steps(cnt), iov_len_step, &w, 0);
	return w.tot;
}

static long iov_data_step(__u32 i, void *ctx)
{
	struct scratch *s = get_scratch(bpf_get_smp_processor_id());
	struct iov_walk *w = ctx;
	struct iovec v;
	__u32 n;

	if (!s || w->got >= w->want)
		return 1;
	if (bpf_probe_read_user(&v, sizeof(v), (void *)(w->uiov + i * sizeof(v)))) {
		w->got = 0;
		return 1;
	}
	n = v.iov_len;
	if (n > w->want - w->got)
		n = w->want - w->got;
	if (bpf_probe_read_user(s->buf + ((w->off + w->got) & HMASK), n & (MAX_STR - 1 + MAX_STR),
				v.iov_base))
		return 1;
	w->got += n;
	return 0;
}

/*
 * the size of a read into iovecs of tot bytes: the bytes read, the whole
 * total when the call failed (the reference's rule)
 */
static __always_inline __u64 read_size(__u64 tot, __s64 ret)
{
	return ret >= 0 && tot > (__u64)ret ? (__u64)ret : tot;
}

/* the first len bytes (capped by snaplen) spread over an iovec array */
static __always_inline void push_iov_data(struct bld *b, __u64 uiov, __u64 cnt, __s64 len)
{
	struct iov_walk w = { .uiov = uiov, .off = b->off };

	if (len > 0 && uiov && cnt) {
		w.want = snap(len);
		bpf_loop(iov_steps(cnt), iov_data_step, &w, 0);
	}
	param_done(b, w.got & (2 * MAX_STR - 1));
}

FILLER(fill_rw)
{
	struct call_ctx *c;
	struct bld b;
	__u16 et;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	et = c->enter_type;
	switch (c->phase == PHASE_EXIT ? 0 : et) {
	case 0:		/* PHASE_EXIT: the exit event only */
		break;
	case PPME_SYSCALL_READ_E:
	case PPME_SYSCALL_WRITE_E:
		begin_evt(&b, et);
		push_u64(&b, arg_fd(c->args[0]));
		push_u32(&b, c->args[2]);
		break;
	case PPME_SYSCALL_PREAD_E:
	case PPME_SYSCALL_PWRITE_E:
		begin_evt(&b, et);
		push_u64(&b, arg_fd(c->args[0]));
		push_u32(&b, c->args[2]);
		push_u64(&b, c->args[3]);
		break;
	case PPME_SYSCALL_READV_E:
		begin_evt(&b, et);
		push_u64(&b, arg_fd(c->args[0]));
		break;
	case PPME_SYSCALL_WRITEV_E:
		begin_evt(&b, et);
		push_u64(&b, arg_fd(c->args[0]));
		push_u32(&b, iov_total(c->args[1], c->args[2]));
		break;
	case PPME_SYSCALL_PREADV_E:
		begin_evt(&b, et);
		push_u64(&b, arg_fd(c->args[0]));
		push_u64(&b, c->args[3]);
		break;
	case PPME_SYSCALL_PWRITEV_E:
		begin_evt(&b, et);
		push_u64(&b, arg_fd(c->args[0]));
		push_u32(&b, iov_total(c->args[1], c->args[2]));
		push_u64(&b, c->args[3]);
		break;
	default:
		return 0;
	}
	if (c->phase != PHASE_EXIT)
		end_evt(&b);
	filler_enter_done(&b);
	switch (et) {
	case PPME_SYSCALL_READ_E:
	case PPME_SYSCALL_PREAD_E:
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_data(&b, c->args[1], c->ret);
		break;
	case PPME_SYSCALL_WRITE_E:
	case PPME_SYSCALL_PWRITE_E:
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_data(&b, c->args[1], c->args[2]);
		break;
	case PPME_SYSCALL_READV_E:
	case PPME_SYSCALL_PREADV_E:
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_u32(&b, read_size(iov_total(c->args[1], c->args[2]), c->ret));
		push_iov_data(&b, c->args[1], c->args[2], c->ret);
		break;
	default:
		begin_evt(&b, c->exit_type);
		push_u64(&b, c->ret);
		push_iov_data(&b, c->args[1], c->args[2], iov_total(c->args[1], c->args[2]));
	}
	end_evt(&b);
	return filler_submit(&b);
}

FILLER(fill_pipe)
{
	struct call_ctx *c;
	struct file *f;
	int fds[2] = { -1, -1 };
	struct bld b;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	begin_evt(&b, c->enter_type);
	end_evt(&b);
	filler_enter_done(&b);
	begin_evt(&b, c->exit_type);
	push_u64(&b, c->ret);
	if (c->ret >= 0)
		bpf_probe_read_user(fds, sizeof(fds), (void *)c->args[0]);
	push_u64(&b, (__s64)fds[0]);
	push_u64(&b, (__s64)fds[1]);
	f = c->ret >= 0 ? fd_file(fds[0]) : NULL;
	push_u64(&b, f ? BPF_CORE_READ(f, f_inode, i_ino) : 0);
	end_evt(&b);
	return filler_submit(&b);
}

#endif
