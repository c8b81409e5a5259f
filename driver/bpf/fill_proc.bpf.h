/*
 * fill_proc.bpf.h - process fillers: clone/fork/vfork/clone3 and
 * execve/execveat.  Their exit events carry the process information
 * (exe, args, ids, cwd, limits, counters, comm, cgroups, ...), read from
 * the current task when the syscall returns (in the child too: a new
 * thread returns from fork through sys_exit).
 */
#ifndef FILL_PROC_BPF_H
#define FILL_PROC_BPF_H

#define MAX_PATH_DEPTH 24
#define MAX_ARGS 4096

/*
 * Write name components from dentry d up to the root into b->s->tmp,
 * right-aligned, crossing mount points.  Returns the start offset.
 */
static __always_inline __u32 build_dpath(struct bld *b, struct dentry *d, struct vfsmount *vm)
{
	struct mount *m = container_of(vm, struct mount, mnt);
	__u32 pos = TMP_SIZE / 2;
	__u8 *t = b->s->tmp;
	__u32 i;

	for (i = 0; i < MAX_PATH_DEPTH; i++) {
		struct dentry *root = BPF_CORE_READ(m, mnt.mnt_root);
		struct dentry *parent = BPF_CORE_READ(d, d_parent);
		struct qstr q;
		__u32 len;

		if (d == root) {
			struct mount *mp = BPF_CORE_READ(m, mnt_parent);

			if (mp == m)
				break;
			d = BPF_CORE_READ(m, mnt_mountpoint);
			m = mp;
			continue;
		}
		if (d == parent)
			break;
		q = BPF_CORE_READ(d, d_name);
		len = q.len & 255;
		if (len + 1 > pos)
			break;
		pos -= len;
		bpf_probe_read_kernel(t + (pos & TMASK), len, q.name);
		pos--;
		t[pos & TMASK] = '/';
		d = parent;
	}
	if (pos == TMP_SIZE / 2) {
		pos--;
		t[pos & TMASK] = '/';
	}
	t[TMP_SIZE / 2] = 0;
	return pos;
}

static __always_inline void push_cwd(struct bld *b, struct task_struct *t)
{
	struct path pwd = BPF_CORE_READ(t, fs, pwd);
	__u32 pos = build_dpath(b, pwd.dentry, pwd.mnt);

	push_kbuf(b, b->s->tmp + (pos & TMASK), TMP_SIZE / 2 - pos + 1);
}

struct kernfs_node___old {
	struct kernfs_node *parent;
};

static __always_inline struct kernfs_node *kn_parent(struct kernfs_node *kn)
{
	if (bpf_core_field_exists(kn->__parent))
		return BPF_CORE_READ(kn, __parent);
	return BPF_CORE_READ((struct kernfs_node___old *)kn, parent);
}

/* cgroup path (kernfs names up to the root) right-aligned in tmp */
static __always_inline __u32 build_cgpath(struct bld *b, struct kernfs_node *kn)
{
	__u32 pos = TMP_SIZE - 1;
	__u8 *t = b->s->tmp + TMP_SIZE / 2;
	__u32 i;

	t[pos & TMASK] = 0;
	for (i = 0; i < MAX_PATH_DEPTH; i++) {
		struct kernfs_node *parent = kn_parent(kn);
		const char *name;
		long n;

		if (!parent)
			break;
		name = BPF_CORE_READ(kn, name);
		{
			char tmpn[64] = {};
			__u32 len;

			n = bpf_probe_read_kernel_str(tmpn, sizeof(tmpn), name);
			if (n <= 1)
				break;
			len = (n - 1) & 63;
			if (len + 1 > pos)
				break;
			pos -= len;
			bpf_probe_read_kernel(t + (pos & TMASK), len, tmpn);
			pos--;
			t[pos & TMASK] = '/';
		}
		kn = parent;
	}
	if (pos == TMP_SIZE - 1) {
		pos--;
		t[pos & TMASK] = '/';
	}
	return pos;
}

/* "subsys=path\0" for every subsystem the task has a css for */
static __always_inline void push_cgroups(struct bld *b, struct task_struct *task)
{
	struct css_set *cs = BPF_CORE_READ(task, cgroups);
	struct kernfs_node *kn = BPF_CORE_READ(cs, dfl_cgrp, kn);
	__u32 pos = build_cgpath(b, kn), plen = TMP_SIZE - pos;
	__u32 start = b->off, off = b->off;
	__u32 i;

	for (i = 0; i < CGROUP_SUBSYS_COUNT; i++) {
		struct cgroup_subsys_state *css = BPF_CORE_READ(cs, subsys[i]);
		long n;

		if (!css)
			continue;
		if (off - start > MAX_STR)
			break;
		n = bpf_probe_read_kernel_str(bpos(b, off), 32, BPF_CORE_READ(css, ss, name));
		if (n <= 0)
			continue;
		off += n - 1;
		*bpos(b, off) = '=';
		off++;
		bpf_probe_read_kernel(bpos(b, off), plen & TMASK, b->s->tmp + TMP_SIZE / 2 + (pos & TMASK));
		off += plen;
	}
	param_done(b, (off - start) & (2 * MAX_STR - 1));
}

/* exe (argv[0]) and args (the rest, NUL separated) from the mm */
static __always_inline void push_exe_args(struct bld *b, struct mm_struct *mm)
{
	__u64 as = BPF_CORE_READ(mm, arg_start), ae = BPF_CORE_READ(mm, arg_end);
	__u64 len = ae - as;
	long n;

	if (!mm || !as || ae <= as) {
		push_lit(b, "", 1);
		push_empty(b);
		return;
	}
	n = bpf_probe_read_user_str(bpos(b, b->off), MAX_STR, (void *)as);
	if (n <= 0) {
		push_lit(b, "", 1);
		push_empty(b);
		return;
	}
	param_done(b, n);
	if (len > MAX_ARGS)
		len = MAX_ARGS;
	if (len <= (__u64)n) {
		push_empty(b);
		return;
	}
	push_ubuf(b, as + n, len - n);
}

static __always_inline void push_env(struct bld *b, struct mm_struct *mm)
{
	__u64 es = BPF_CORE_READ(mm, env_start), ee = BPF_CORE_READ(mm, env_end);

	if (!mm || ee <= es) {
		push_empty(b);
		return;
	}
	push_ubuf(b, es, ee - es > MAX_ARGS ? MAX_ARGS : ee - es);
}

static __always_inline __u32 task_vnr(struct task_struct *t, int tgid)
{
	struct pid *p = tgid ? BPF_CORE_READ(t, signal, pids[PIDTYPE_TGID]) : BPF_CORE_READ(t, thread_pid);
	__u32 level = BPF_CORE_READ(p, level);

	return BPF_CORE_READ(p, numbers[level].nr);
}

/* the process part shared by clone and execve exits (params 1-13) */
static __always_inline void push_proc_common(struct bld *b, struct task_struct *t, struct mm_struct *mm)
{
	push_exe_args(b, mm);
	push_u64(b, BPF_CORE_READ(t, pid));
	push_u64(b, BPF_CORE_READ(t, tgid));
	push_u64(b, BPF_CORE_READ(t, real_parent, pid));
	push_cwd(b, t);
	push_u64(b, BPF_CORE_READ(t, signal, rlim[LX_RLIMIT_NOFILE].rlim_cur));
	push_u64(b, BPF_CORE_READ(t, maj_flt));
	push_u64(b, BPF_CORE_READ(t, min_flt));
	push_u32(b, vm_kb(0));
	push_u32(b, vm_kb(1));
	push_u32(b, vm_kb(2));
	push_kstr(b, BPF_CORE_READ(t, comm), 16);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_clone, struct pt_regs *regs, long ret)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	struct call_ctx *c;
	struct bld b;
	__u64 flags = 0;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	if (c->enter_type == PPME_SYSCALL_CLONE_20_E)
		flags = c->args[0];
	else if (c->enter_type == PPME_SYSCALL_CLONE3_E)
		bpf_probe_read_user(&flags, sizeof(flags), (void *)c->args[0]);
	else if (c->enter_type == PPME_SYSCALL_VFORK_20_E)
		flags = LX_CLONE_VM | LX_CLONE_VFORK;
	begin_evt(&b, c->enter_type, 0, c->ts);
	end_evt(&b);
	begin_evt(&b, c->exit_type, 20, c->ts);
	push_u64(&b, c->ret);
	push_proc_common(&b, t, mm);
	push_cgroups(&b, t);
	push_u32(&b, clone_flags_to_ppm(flags));
	push_u32(&b, BPF_CORE_READ(t, cred, euid.val));
	push_u32(&b, BPF_CORE_READ(t, cred, egid.val));
	push_u64(&b, task_vnr(t, 0));
	push_u64(&b, task_vnr(t, 1));
	end_evt(&b);
	return filler_submit(&b);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_execve, struct pt_regs *regs, long ret)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	struct tty_struct *tty = BPF_CORE_READ(t, signal, tty);
	struct exec_name *en = NULL;
	struct call_ctx *c;
	__u32 tid, tty_nr = 0;
	struct bld b;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	tid = c->tid;
	if (c->ret == 0)
		en = bpf_map_lookup_elem(&exec_names, &tid);
	if (c->enter_type == PPME_SYSCALL_EXECVEAT_E) {
		begin_evt(&b, c->enter_type, 3, c->ts);
		push_u64(&b, (__s64)(__s32)c->args[0]);
		if (en)
			push_kstr(&b, en->name, MAX_STR);
		else
			push_ustr(&b, c->args[1]);
		push_u32(&b, c->args[4]);
	} else {
		begin_evt(&b, c->enter_type, 1, c->ts);
		if (en)
			push_kstr(&b, en->name, MAX_STR);
		else
			push_ustr(&b, c->args[0]);
	}
	end_evt(&b);
	if (en)
		bpf_map_delete_elem(&exec_names, &tid);
	begin_evt(&b, c->exit_type, 20, c->ts);
	push_u64(&b, c->ret);
	push_proc_common(&b, t, mm);
	push_cgroups(&b, t);
	push_env(&b, mm);
	if (tty) {
		int major = BPF_CORE_READ(tty, driver, major);
		int minor = BPF_CORE_READ(tty, driver, minor_start) + BPF_CORE_READ(tty, index);

		tty_nr = encode_dev((major << 20) | minor);
	}
	push_u32(&b, tty_nr);
	push_u64(&b, BPF_CORE_READ(t, signal, pids[PIDTYPE_PGID], numbers[0].nr));
	push_u32(&b, BPF_CORE_READ(t, loginuid.val));
	push_u32(&b, 0);
	end_evt(&b);
	return filler_submit(&b);
}

#endif
