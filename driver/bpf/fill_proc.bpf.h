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
 * Path walks run under bpf_loop(): the verifier checks the loop body once,
 * whatever the number of components.  Names are written right-aligned
 * into a half of scratch->tmp; pos is the start of the path.
 */
struct walk {
	__u64 d;		/* struct dentry * or struct kernfs_node * */
	__u64 m;		/* struct mount * */
	__u64 rd, rm;		/* stop at this dentry and mount (the task's root), or 0 */
	__u32 pos;
	__u32 base;		/* offset of the half of tmp */
};

/* prepend "/" + len bytes at src; 1 when there is no room */
static __always_inline int walk_prepend(struct walk *w, const void *src, __u32 len)
{
	struct scratch *s = get_scratch(bpf_get_smp_processor_id());
	__u8 *t;

	if (!s || len + 1 > w->pos)
		return 1;
	t = s->tmp + (w->base & (TMP_SIZE / 2));
	w->pos -= len;
	bpf_probe_read_kernel(t + (w->pos & TMASK), len & 255, src);
	w->pos--;
	t[w->pos & TMASK] = '/';
	return 0;
}

static long dentry_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct dentry *d = (struct dentry *)w->d;
	struct mount *m = (struct mount *)w->m;
	struct dentry *parent = BPF_CORE_READ(d, d_parent);
	struct qstr q;

	if (w->rd && (__u64)d == w->rd && (__u64)m == w->rm)
		return 1;
	if (d == BPF_CORE_READ(m, mnt.mnt_root)) {
		struct mount *mp = BPF_CORE_READ(m, mnt_parent);

		if (mp == m)
			return 1;
		w->d = (__u64)BPF_CORE_READ(m, mnt_mountpoint);
		w->m = (__u64)mp;
		return 0;
	}
	if (d == parent)
		return 1;
	q = BPF_CORE_READ(d, d_name);
	if (walk_prepend(w, q.name, q.len & 255))
		return 1;
	w->d = (__u64)parent;
	return 0;
}

/* the working directory as seen from the task's root (a chroot), as d_path() */
static __always_inline void push_cwd(struct bld *b, struct task_struct *t)
{
	struct path pwd = BPF_CORE_READ(t, fs, pwd);
	struct path root = BPF_CORE_READ(t, fs, root);
	struct walk w = {
		.d = (__u64)pwd.dentry,
		.m = (__u64)container_of(pwd.mnt, struct mount, mnt),
		.rd = (__u64)root.dentry,
		.rm = (__u64)container_of(root.mnt, struct mount, mnt),
		.pos = TMP_SIZE / 2 - 1,
		.base = 0,
	};

	b->s->tmp[TMP_SIZE / 2 - 1] = 0;
	bpf_loop(MAX_PATH_DEPTH * 2, dentry_step, &w, 0);
	if (w.pos == TMP_SIZE / 2 - 1) {
		w.pos--;
		b->s->tmp[w.pos & TMASK] = '/';
	}
	push_kbuf(b, b->s->tmp + (w.pos & TMASK), TMP_SIZE / 2 - w.pos);
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

/* where a kernfs node name is read before it is placed (past both halves) */
#define NAME_STAGE TMP_SIZE
#define NAME_MAX_LEN 256

static long kernfs_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct kernfs_node *kn = (struct kernfs_node *)w->d;
	struct kernfs_node *parent = kn_parent(kn);
	struct scratch *s = get_scratch(bpf_get_smp_processor_id());
	long n;

	if (!parent || !s)
		return 1;
	/* whole names (a container scope is 77 bytes), up to NAME_MAX */
	n = bpf_probe_read_kernel_str(s->tmp + NAME_STAGE, NAME_MAX_LEN, BPF_CORE_READ(kn, name));
	if (n <= 1 || walk_prepend(w, s->tmp + NAME_STAGE, (n - 1) & (NAME_MAX_LEN - 1)))
		return 1;
	w->d = (__u64)parent;
	return 0;
}

/*
 * The path of cgroup cg (from its hierarchy's root) at tmp[TMP_SIZE/2 +
 * pos..], pos returned.  A global function: verified once, not inside the
 * verification of each subsystem step.
 */
__noinline int g_cgroup_path(__u64 cg)
{
	struct scratch *s = get_scratch(bpf_get_smp_processor_id());
	struct walk w = {
		.pos = TMP_SIZE / 2 - 1,
		.base = TMP_SIZE / 2,
	};

	if (!s)
		return w.pos;
	w.d = (__u64)BPF_CORE_READ((struct cgroup *)cg, kn);
	s->tmp[TMP_SIZE - 1] = 0;
	bpf_loop(MAX_PATH_DEPTH, kernfs_step, &w, 0);
	if (w.pos == TMP_SIZE / 2 - 1) {
		w.pos--;
		s->tmp[TMP_SIZE / 2 + (w.pos & TMASK)] = '/';
	}
	return w.pos;
}

struct cg_walk {
	__u64 cs;		/* struct css_set * */
	__u64 last;		/* struct cgroup * whose path is in tmp */
	__u32 off;		/* record offset */
	__u32 start;
	__u32 pos;		/* path start in the second half of tmp */
};

/*
 * subsystem i: "name=path\0", the path of the cgroup the task's css of
 * that subsystem belongs to (its v1 hierarchy, or the v2 cgroup where the
 * controller is enabled), as the reference driver's cgroup_path() of
 * css->cgroup
 */
static long cgroup_step(__u32 i, void *ctx)
{
	struct cg_walk *w = ctx;
	struct scratch *s = get_scratch(bpf_get_smp_processor_id());
	struct css_set *cs = (struct css_set *)w->cs;
	struct cgroup_subsys_state *css;
	struct cgroup *cg;
	__u32 plen;
	long n;

	if (!s || i >= CGROUP_SUBSYS_COUNT)
		return 1;
	css = BPF_CORE_READ(cs, subsys[i]);
	if (!css)
		return 0;
	if (w->off - w->start > MAX_STR)
		return 1;
	cg = BPF_CORE_READ(css, cgroup);
	if ((__u64)cg != w->last) {
		w->pos = g_cgroup_path((__u64)cg) & TMASK;
		w->last = (__u64)cg;
	}
	plen = TMP_SIZE / 2 - w->pos;
	n = bpf_probe_read_kernel_str(s->buf + (w->off & HMASK), 32, BPF_CORE_READ(css, ss, name));
	if (n <= 0)
		return 0;
	w->off += n - 1;
	s->buf[w->off & HMASK] = '=';
	w->off++;
	bpf_probe_read_kernel(s->buf + (w->off & HMASK), plen & TMASK,
			      s->tmp + TMP_SIZE / 2 + (w->pos & TMASK));
	w->off += plen;
	return 0;
}

/* "subsys=path\0" for every subsystem the task has a css for */
static __always_inline void push_cgroups(struct bld *b, struct task_struct *task)
{
	struct cg_walk cw = {
		.cs = (__u64)BPF_CORE_READ(task, cgroups),
		.off = b->off,
		.start = b->off,
	};

	bpf_loop(CGROUP_SUBSYS_COUNT, cgroup_step, &cw, 0);
	param_done(b, (cw.off - cw.start) & (2 * MAX_STR - 1));
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

/*
 * PPM_CL_CHILD_IN_PIDNS: t runs in a pid namespace other than the initial
 * one, or its children will (after unshare(CLONE_NEWPID)); the parser then
 * takes vtid/vpid from the event
 */
static __always_inline __u32 child_in_pidns(struct task_struct *t)
{
	struct pid *p = BPF_CORE_READ(t, thread_pid);
	__u32 level = BPF_CORE_READ(p, level);
	struct pid_namespace *ns = BPF_CORE_READ(p, numbers[level].ns);

	if (level || BPF_CORE_READ(t, nsproxy, pid_ns_for_children) != ns)
		return PPM_CL_CHILD_IN_PIDNS;
	return 0;
}

/*
 * The loops above as global functions, verified once each; they continue
 * the record saved in the scratch area by bld_save().
 */
__noinline int g_push_cwd(void)
{
	struct bld b;

	if (bld_resume(&b))
		return 0;
	push_cwd(&b, bpf_get_current_task_btf());
	bld_save(&b);
	return 0;
}

__noinline int g_push_cgroups(void)
{
	struct bld b;

	if (bld_resume(&b))
		return 0;
	push_cgroups(&b, bpf_get_current_task_btf());
	bld_save(&b);
	return 0;
}

__noinline int g_push_exe_args(void)
{
	struct bld b;

	if (bld_resume(&b))
		return 0;
	push_exe_args(&b, BPF_CORE_READ(bpf_get_current_task_btf(), mm));
	bld_save(&b);
	return 0;
}

#define CALL_G(b, fn)			\
	do {				\
		bld_save(b);		\
		fn();			\
		if (bld_resume(b))	\
			return;		\
	} while (0)

/* the process part shared by clone and execve exits (params 1-13) */
static __always_inline void push_proc_common(struct bld *b, struct task_struct *t)
{
	CALL_G(b, g_push_exe_args);
	push_u64(b, BPF_CORE_READ(t, pid));
	push_u64(b, BPF_CORE_READ(t, tgid));
	push_u64(b, BPF_CORE_READ(t, real_parent, pid));
	CALL_G(b, g_push_cwd);
	push_u64(b, BPF_CORE_READ(t, signal, rlim[LX_RLIMIT_NOFILE].rlim_cur));
	push_u64(b, BPF_CORE_READ(t, maj_flt));
	push_u64(b, BPF_CORE_READ(t, min_flt));
	push_u32(b, vm_kb(0));
	push_u32(b, vm_kb(1));
	push_u32(b, vm_kb(2));
	push_kstr(b, BPF_CORE_READ(t, comm), 16);
	CALL_G(b, g_push_cgroups);
}

FILLER(fill_clone)
{
	struct task_struct *t = bpf_get_current_task_btf();
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
	/* fork and vfork: 0, as the reference driver writes */
	begin_evt(&b, c->enter_type);
	end_evt(&b);
	filler_enter_done(&b);
	begin_evt(&b, c->exit_type);
	push_u64(&b, c->ret);
	push_proc_common(&b, t);
	if (!b.s)
		return 0;
	push_u32(&b, clone_flags_to_ppm(flags) | child_in_pidns(t));
	push_u32(&b, BPF_CORE_READ(t, cred, euid.val));
	push_u32(&b, BPF_CORE_READ(t, cred, egid.val));
	push_u64(&b, task_vnr(t, 0));
	push_u64(&b, task_vnr(t, 1));
	end_evt(&b);
	return filler_submit(&b);
}

#define PPM_EXE_WRITABLE 1	/* execve exit flags */
#define LX_CAP_DAC_OVERRIDE 1
#define LX_CAP_FOWNER 3
#define LX_SB_RDONLY 1
#define LX_S_IMMUTABLE 8

/*
 * PPM_EXE_WRITABLE, the reference's rule (the kernel module's
 * exe_writable()): the task owns its executable or has CAP_FOWNER, or may
 * write it (mode bits for its fsuid/fsgid or CAP_DAC_OVERRIDE, not on a
 * read-only or immutable inode).  Supplementary groups are not looked at.
 */
static __always_inline int exe_writable(struct task_struct *t)
{
	struct inode *inode = BPF_CORE_READ(t, mm, exe_file, f_inode);
	const struct cred *cr = BPF_CORE_READ(t, cred);
	__u32 fsuid, fsgid, uid, gid, mode;
	__u64 caps = 0;

	if (!inode || !cr)
		return 0;
	bpf_probe_read_kernel(&caps, sizeof(caps), &cr->cap_effective);
	fsuid = BPF_CORE_READ(cr, fsuid.val);
	fsgid = BPF_CORE_READ(cr, fsgid.val);
	uid = BPF_CORE_READ(inode, i_uid.val);
	gid = BPF_CORE_READ(inode, i_gid.val);
	mode = BPF_CORE_READ(inode, i_mode);
	if (fsuid == uid || (caps & (1ULL << LX_CAP_FOWNER)))
		return 1;
	if ((BPF_CORE_READ(inode, i_sb, s_flags) & LX_SB_RDONLY) ||
	    (BPF_CORE_READ(inode, i_flags) & LX_S_IMMUTABLE))
		return 0;
	if (caps & (1ULL << LX_CAP_DAC_OVERRIDE))
		return 1;
	if (fsuid == uid)
		return (mode & 0200) != 0;
	if (fsgid == gid)
		return (mode & 0020) != 0;
	return (mode & 0002) != 0;
}

FILLER(fill_execve)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	struct tty_struct *tty = BPF_CORE_READ(t, signal, tty);
	struct exec_name *en = NULL;
	struct call_ctx *c;
	__u32 tid, tty_nr = 0;
	__u64 *deferred;
	struct bld b;
	int name_ok;

	if (filler_start(&b))
		return 0;
	c = &b.s->c;
	tid = c->tid;
	/* an enter event left for the exit (below): both are written now */
	if (!at_enter && c->phase == PHASE_EXIT) {
		deferred = bpf_map_lookup_elem(&exec_deferred, &tid);
		if (deferred) {
			c->ets = *deferred;
			c->phase = PHASE_PAIR;
			bpf_map_delete_elem(&exec_deferred, &tid);
		}
	}
	/* the filename kept by sched_process_exec (the user memory is gone
	 * after a successful execve); else read now */
	if (c->ret == 0 && c->phase == PHASE_PAIR)
		en = bpf_map_lookup_elem(&exec_names, &tid);
	if (c->enter_type == PPME_SYSCALL_EXECVEAT_E) {
		begin_evt(&b, c->enter_type);
		push_u64(&b, (__s64)(__s32)c->args[0]);
		name_ok = en ? push_kstr(&b, en->name, MAX_STR) : push_ustr(&b, c->args[1]);
		push_u32(&b, c->args[4]);
	} else {
		begin_evt(&b, c->enter_type);
		name_ok = en ? push_kstr(&b, en->name, MAX_STR) : push_ustr(&b, c->args[0]);
	}
	end_evt(&b);
	/*
	 * The filename is not paged in (a string in a forked child's untouched
	 * data): the kernel's own read faults it in, ours cannot.  The enter
	 * event waits for the exit, with its enter time; sched_process_exec
	 * keeps the name.
	 */
	if (at_enter && !name_ok) {
		bpf_map_update_elem(&exec_deferred, &tid, &c->ts, BPF_ANY);
		return 0;
	}
	if (en)
		bpf_map_delete_elem(&exec_names, &tid);
	filler_enter_done(&b);
	begin_evt(&b, c->exit_type);
	push_u64(&b, c->ret);
	push_proc_common(&b, t);
	if (!b.s)
		return 0;
	push_env(&b, mm);
	if (tty) {
		int major = BPF_CORE_READ(tty, driver, major);
		int minor = BPF_CORE_READ(tty, driver, minor_start) + BPF_CORE_READ(tty, index);

		tty_nr = encode_dev((major << 20) | minor);
	}
	push_u32(&b, tty_nr);
	push_u64(&b, BPF_CORE_READ(t, signal, pids[PIDTYPE_PGID], numbers[0].nr));
	push_u32(&b, BPF_CORE_READ(t, loginuid.val));
	push_u32(&b, (long)c->ret >= 0 && exe_writable(t) ? PPM_EXE_WRITABLE : 0);
	end_evt(&b);
	return filler_submit(&b);
}

#endif
