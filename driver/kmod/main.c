// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - sysdigc kernel module: syscall capture into per-CPU ring buffers.
 *
 * Probes on the raw_syscalls sys_enter/sys_exit tracepoints and on
 * sched_process_exit, sched_switch and signal_deliver build events of the e5c53d64 layout (fill.c) and copy
 * them into the ring buffer of the CPU they run on.  Each CPU has a
 * character device /dev/sysdigcN (root only); opening it allocates the
 * ring, mmap() exposes it, ioctls control the capture (kmod_abi.h).
 * Probes are attached while at least one device is open.  Which tasks are
 * captured: select.c.
 */
#include <linux/version.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/tracepoint.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/compat.h>
#include <linux/capability.h>
#include <asm/syscall.h>
#include "event_format.h"
#include "syscall_table.h"
#include "kmod_abi.h"
#include "fill.h"
#include "stack.h"
#include "select.h"

#define KMOD_SCRATCH_SIZE (128 * 1024)

static unsigned int ring_kb = 8192;
module_param(ring_kb, uint, 0444);
MODULE_PARM_DESC(ring_kb, "ring buffer size per CPU in KiB (power of two)");

struct kring {
	void *mem;		/* vmalloc_user: info page + data */
	struct kmod_ring_info *info;
	u8 *data;
	u8 *scratch;
	/* private copies: the reader can write the mapped info page */
	u64 size;		/* bytes of data */
	u64 head;		/* next write offset */
	struct kfill fill;	/* probe context: per CPU, no stack to clear */
	atomic_t open;
	bool active;		/* probes may write */
};

static struct kring *g_rings;
static unsigned int g_nrings;
static dev_t g_devt;
static struct cdev g_cdev;
static struct class *g_class;

static DEFINE_MUTEX(g_lock);	/* probe registration, g_nopen */
static unsigned int g_nopen;
static bool g_capture;
static bool g_tracers;	/* KMOD_IOC_SET_TRACERS */
static u32 g_snaplen = 80;
static pid_t g_skip_tgid;
static u8 g_mask[KMOD_MASK_SIZE];

static struct tracepoint *tp_sys_enter, *tp_sys_exit, *tp_proc_exit;
static struct tracepoint *tp_sched_switch, *tp_signal_deliver;

static struct kring *this_ring(void)
{
	unsigned int cpu = smp_processor_id();
	struct kring *r;

	if (cpu >= g_nrings)
		return NULL;
	r = &g_rings[cpu];
	return READ_ONCE(r->active) ? r : NULL;
}

static bool skip_task(struct task_struct *t)
{
	pid_t skip = READ_ONCE(g_skip_tgid);

	return skip && t->tgid == skip;
}

/* free bytes; one slot stays unused so that head == tail means empty */
static inline u64 ring_space(u64 size, u64 head, u64 tail)
{
	return size - ((head - tail) & (size - 1)) - KMOD_EVT_ALIGN;
}

/* publish an event of @len bytes written at @head */
static inline void ring_commit(struct kring *r, u64 head, u32 len)
{
	head += ALIGN(len, KMOD_EVT_ALIGN);
	if (head == r->size)
		head = 0;
	r->head = head;
	smp_store_release(&r->info->head, head);
	r->info->n_written++;
}

/* copy an event built in scratch into the ring, wrapping to offset 0 */
static void ring_push(struct kring *r, u64 head, u64 tail, u32 len)
{
	u64 size = r->size, alen = ALIGN(len, KMOD_EVT_ALIGN);

	if (ring_space(size, head, tail) < size - head + alen) {
		r->info->n_drops_buffer++;
		return;
	}
	if (size - head >= KMOD_WRAP_MIN)
		((struct ppm_evt_hdr *)(r->data + head))->len = 0;
	memcpy(r->data, r->scratch, len);
	ring_commit(r, 0, len);
}

/*
 * Build the event straight into the ring at head.  Only when it does not
 * fit before the end of the ring is it built again in scratch and copied
 * to offset 0; when it does not fit in the free space it is a drop.
 */
static void record_with(struct kring *r, struct kfill *f, u16 type,
			int (*fill)(struct kfill *f, u16 type))
{
	struct kmod_ring_info *info = r->info;
	u64 size = r->size, head = r->head;
	u64 tail = smp_load_acquire(&info->tail);
	u64 space, room;
	int len;

	info->n_seen++;
	if (unlikely(tail >= size || (tail & (KMOD_EVT_ALIGN - 1)))) {
		info->n_drops_buffer++;
		return;
	}
	space = ring_space(size, head, tail);
	room = min3(space, size - head, (u64)KMOD_SCRATCH_SIZE);
	f->snaplen = READ_ONCE(g_snaplen);
	f->tracer_snaplen = READ_ONCE(g_tracers) ? SCAP_TRACER_SNAPLEN : 0;
	f->buf = r->data + head;
	f->cap = room;
	len = fill(f, type);
	if (likely(len >= 0)) {
		ring_commit(r, head, len);
		return;
	}
	if (room == KMOD_SCRATCH_SIZE) {
		info->n_drops_fault++;
		return;
	}
	if (room == space) {
		info->n_drops_buffer++;
		return;
	}
	f->buf = r->scratch;
	f->cap = KMOD_SCRATCH_SIZE;
	len = fill(f, type);
	if (len < 0)
		info->n_drops_fault++;
	else
		ring_push(r, head, tail, len);
}

static void record(struct kring *r, struct kfill *f, u16 type)
{
	record_with(r, f, type, kmod_fill_event);
}

/*
 * The ring and the probe context are per CPU: preemption stays disabled
 * while an event is built (tracepoints of older kernels already do so,
 * newer ones call syscall probes preemptible).
 */
static void syscall_probe(struct pt_regs *regs, long id, long ret, bool is_exit)
{
	const struct syscall_evt_pair *p;
	struct kfill *f;
	struct kring *r;
	u16 type;
	u8 mask;

	if (!READ_ONCE(g_capture) || in_compat_syscall())
		return;
	if (id < 0 || id >= SYSCALL_TABLE_SIZE)
		return;
	if (skip_task(current))
		return;
	p = &g_syscall_table[id];
	if (p->kind == 1)
		type = is_exit ? p->exit_event : p->enter_event;
	else
		type = is_exit ? PPME_GENERIC_X : PPME_GENERIC_E;
	if (type >= PPM_EVENT_MAX)
		return;
	mask = READ_ONCE(g_mask[type]);
	if (!mask)
		return;
	preempt_disable_notrace();
	r = this_ring();
	if (r && !kmod_select_drops(current, mask & KMOD_MASK_LIFECYCLE, r->info)) {
		f = &r->fill;
		f->task = current;
		f->ret = ret;
		f->sc = p->ppm_sc;
		f->nr = id;
		syscall_get_arguments(current, regs, f->args);
		f->ts = 0;
		f->regs = regs;
		/* --stacks: the stack, then its enter event, at one time */
		if (!is_exit && (mask & KMOD_MASK_STACK)) {
			f->ts = ktime_get_real_ns();
			record_with(r, f, !!(mask & KMOD_MASK_KSTACK),
				    kmod_fill_stack);
		}
		record(r, f, type);
	}
	preempt_enable_notrace();
}

static void probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	syscall_probe(regs, id, 0, false);
}

static void probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	syscall_probe(regs, syscall_get_nr(current, regs), ret, true);
}

/* a non-syscall event of task @t with its parameters in @args (fill.c) */
static void task_event(struct task_struct *t, u16 type, const unsigned long *args, u32 nargs)
{
	struct kfill *f;
	struct kring *r;

	if (!READ_ONCE(g_capture) || !READ_ONCE(g_mask[type]) || skip_task(t))
		return;
	preempt_disable_notrace();
	r = this_ring();
	if (r && !kmod_select_drops(t, READ_ONCE(g_mask[type]) & KMOD_MASK_LIFECYCLE, r->info)) {
		f = &r->fill;
		memset(f, 0, sizeof(*f));
		f->task = t;
		memcpy(f->args, args, nargs * sizeof(*args));
		record(r, f, type);
	}
	preempt_enable_notrace();
}

static void probe_proc_exit(void *data, struct task_struct *p)
{
	task_event(p, PPME_PROCEXIT_1_E, NULL, 0);
	kmod_select_exit(p);
}

/*
 * switch: the thread going off the CPU (its fault and memory counters)
 * and the incoming one, next=0 for the idle task, as the reference driver;
 * the idle task's own switches are not reported
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
static void probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
			       struct task_struct *next, unsigned int prev_state)
#else
static void probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
			       struct task_struct *next)
#endif
{
	unsigned long args[1] = { next->pid };

	if (prev->pid)
		task_event(prev, PPME_SCHEDSWITCH_6_E, args, 1);
}

/*
 * The sender, by the reference driver's rules: the siginfo pid for SIGKILL,
 * SIGCHLD and real-time signals, and for SIGTERM/HUP/INT/TSTP/QUIT sent by
 * a process (si_code <= SI_USER); else 0.  SEND_SIG_NOINFO/PRIV are no
 * pointers.  The same rules as the BPF driver's signal_sender().
 */
static pid_t signal_sender(int sig, struct kernel_siginfo *info)
{
	if (info == SEND_SIG_NOINFO || info == SEND_SIG_PRIV)
		return 0;
	switch (sig) {
	case SIGTERM:
	case SIGHUP:
	case SIGINT:
	case SIGTSTP:
	case SIGQUIT:
		if (info->si_code > SI_USER)
			return 0;
		fallthrough;
	case SIGKILL:
	case SIGCHLD:
		return info->si_pid;
	}
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return info->si_pid;
	return 0;
}

/* signaldeliver: a signal delivered to the current thread (dpid = its tid) */
static void probe_signal_deliver(void *data, int sig, struct kernel_siginfo *info,
				 struct k_sigaction *ka)
{
	unsigned long args[3] = { signal_sender(sig, info), current->pid, sig };

	task_event(current, PPME_SIGNALDELIVER_E, args, 3);
}

static void find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		tp_sys_enter = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		tp_sys_exit = tp;
	else if (!strcmp(tp->name, "sched_process_exit"))
		tp_proc_exit = tp;
	else if (!strcmp(tp->name, "sched_switch"))
		tp_sched_switch = tp;
	else if (!strcmp(tp->name, "signal_deliver"))
		tp_signal_deliver = tp;
}

static int probes_attach(void)
{
	int err;

	err = tracepoint_probe_register(tp_sys_enter, probe_sys_enter, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(tp_sys_exit, probe_sys_exit, NULL);
	if (err)
		goto out_enter;
	err = tracepoint_probe_register(tp_proc_exit, probe_proc_exit, NULL);
	if (err)
		goto out_exit;
	err = tracepoint_probe_register(tp_sched_switch, probe_sched_switch, NULL);
	if (err)
		goto out_proc_exit;
	err = tracepoint_probe_register(tp_signal_deliver, probe_signal_deliver, NULL);
	if (err)
		goto out_switch;
	return 0;
out_switch:
	tracepoint_probe_unregister(tp_sched_switch, probe_sched_switch, NULL);
out_proc_exit:
	tracepoint_probe_unregister(tp_proc_exit, probe_proc_exit, NULL);
out_exit:
	tracepoint_probe_unregister(tp_sys_exit, probe_sys_exit, NULL);
out_enter:
	tracepoint_probe_unregister(tp_sys_enter, probe_sys_enter, NULL);
	tracepoint_synchronize_unregister();
	return err;
}

static void probes_detach(void)
{
	tracepoint_probe_unregister(tp_signal_deliver, probe_signal_deliver, NULL);
	tracepoint_probe_unregister(tp_sched_switch, probe_sched_switch, NULL);
	tracepoint_probe_unregister(tp_proc_exit, probe_proc_exit, NULL);
	tracepoint_probe_unregister(tp_sys_exit, probe_sys_exit, NULL);
	tracepoint_probe_unregister(tp_sys_enter, probe_sys_enter, NULL);
	tracepoint_synchronize_unregister();
}

static void ring_free(struct kring *r)
{
	vfree(r->scratch);
	vfree(r->mem);
	r->scratch = NULL;
	r->mem = NULL;
}

static int ring_alloc(struct kring *r)
{
	u64 size = (u64)ring_kb * 1024;

	r->mem = vmalloc_user(KMOD_INFO_SIZE + size);
	r->scratch = vmalloc(KMOD_SCRATCH_SIZE);
	if (!r->mem || !r->scratch) {
		ring_free(r);
		return -ENOMEM;
	}
	r->info = r->mem;
	r->data = (u8 *)r->mem + KMOD_INFO_SIZE;
	r->info->size = size;
	r->size = size;
	r->head = 0;
	return 0;
}

static int kmod_open(struct inode *inode, struct file *filp)
{
	unsigned int cpu = iminor(inode);
	struct kring *r;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (cpu >= g_nrings)
		return -ENODEV;
	r = &g_rings[cpu];
	if (atomic_cmpxchg(&r->open, 0, 1))
		return -EBUSY;
	err = ring_alloc(r);
	if (err)
		goto out_busy;
	mutex_lock(&g_lock);
	if (g_nopen == 0) {
		err = probes_attach();
		if (err) {
			mutex_unlock(&g_lock);
			ring_free(r);
			goto out_busy;
		}
	}
	g_nopen++;
	mutex_unlock(&g_lock);
	filp->private_data = r;
	WRITE_ONCE(r->active, true);
	return 0;
out_busy:
	atomic_set(&r->open, 0);
	return err;
}

static int kmod_release(struct inode *inode, struct file *filp)
{
	struct kring *r = filp->private_data;

	WRITE_ONCE(r->active, false);
	mutex_lock(&g_lock);
	if (--g_nopen == 0) {
		WRITE_ONCE(g_capture, false);
		WRITE_ONCE(g_skip_tgid, 0);
		probes_detach();
		kmod_select_reset();
	} else {
		synchronize_rcu();
	}
	mutex_unlock(&g_lock);
	ring_free(r);
	atomic_set(&r->open, 0);
	return 0;
}

static int kmod_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct kring *r = filp->private_data;
	unsigned long len = vma->vm_end - vma->vm_start;

	if (vma->vm_pgoff != 0 || len > KMOD_INFO_SIZE + r->size)
		return -EINVAL;
	return remap_vmalloc_range(vma, r->mem, 0);
}

static long kmod_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct kring *r = filp->private_data;
	void __user *uarg = (void __user *)arg;
	u64 schema = SCHEMA_HASH;
	struct kmod_stats st;
	u32 snaplen;
	s32 tgid;

	switch (cmd) {
	case KMOD_IOC_START:
		WRITE_ONCE(g_capture, true);
		return 0;
	case KMOD_IOC_STOP:
		WRITE_ONCE(g_capture, false);
		WRITE_ONCE(g_tracers, false);
		return 0;
	case KMOD_IOC_SET_SNAPLEN:
		if (copy_from_user(&snaplen, uarg, sizeof(snaplen)))
			return -EFAULT;
		if (snaplen > PPM_MAX_ARG_SIZE)
			return -EINVAL;
		WRITE_ONCE(g_snaplen, snaplen);
		return 0;
	case KMOD_IOC_SET_MASK:
		if (copy_from_user(g_mask, uarg, sizeof(g_mask)))
			return -EFAULT;
		return 0;
	case KMOD_IOC_GET_STATS:
		st.n_seen = r->info->n_seen;
		st.n_written = r->info->n_written;
		st.n_drops_buffer = r->info->n_drops_buffer;
		st.n_drops_fault = r->info->n_drops_fault;
		st.n_suppressed = r->info->n_suppressed;
		st.n_unselected = r->info->n_unselected;
		return copy_to_user(uarg, &st, sizeof(st)) ? -EFAULT : 0;
	case KMOD_IOC_SKIP_TGID:
		if (copy_from_user(&tgid, uarg, sizeof(tgid)))
			return -EFAULT;
		WRITE_ONCE(g_skip_tgid, tgid);
		return 0;
	case KMOD_IOC_SET_TRACERS:
		WRITE_ONCE(g_tracers, true);
		return 0;
	case KMOD_IOC_GET_SCHEMA:
		return copy_to_user(uarg, &schema, sizeof(schema)) ? -EFAULT : 0;
	case KMOD_IOC_SET_SELECT:
		return READ_ONCE(g_capture) ? -EBUSY : kmod_select_set(uarg);
	case KMOD_IOC_SET_LISTS:
		return READ_ONCE(g_capture) ? -EBUSY : kmod_select_lists(uarg);
	case KMOD_IOC_SELECT_ID:
		return kmod_select_add(uarg);
	case KMOD_IOC_SELECT_CGROUP:
		return kmod_select_cgroup(uarg);
	case KMOD_IOC_IS_SELECTED:
		return kmod_select_query(uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations kmod_fops = {
	.owner = THIS_MODULE,
	.open = kmod_open,
	.release = kmod_release,
	.mmap = kmod_mmap,
	.unlocked_ioctl = kmod_ioctl,
};

static void devices_destroy(unsigned int n)
{
	while (n--)
		device_destroy(g_class, MKDEV(MAJOR(g_devt), n));
}

static int __init kmod_init(void)
{
	unsigned int i;
	int err;

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	if (!tp_sys_enter || !tp_sys_exit || !tp_proc_exit || !tp_sched_switch ||
	    !tp_signal_deliver) {
		pr_err(KMOD_NAME ": syscall tracepoints not found\n");
		return -ENOENT;
	}
	if (!ring_kb || (ring_kb & (ring_kb - 1)) || ring_kb > 1024 * 1024) {
		pr_err(KMOD_NAME ": ring_kb must be a power of two\n");
		return -EINVAL;
	}
	memset(g_mask, 1, sizeof(g_mask));
	g_nrings = nr_cpu_ids;
	g_rings = kcalloc(g_nrings, sizeof(*g_rings), GFP_KERNEL);
	if (!g_rings)
		return -ENOMEM;
	err = alloc_chrdev_region(&g_devt, 0, g_nrings, KMOD_NAME);
	if (err)
		goto out_free;
	cdev_init(&g_cdev, &kmod_fops);
	g_cdev.owner = THIS_MODULE;
	err = cdev_add(&g_cdev, g_devt, g_nrings);
	if (err)
		goto out_region;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	g_class = class_create(KMOD_NAME);
#else
	g_class = class_create(THIS_MODULE, KMOD_NAME);
#endif
	if (IS_ERR(g_class)) {
		err = PTR_ERR(g_class);
		goto out_cdev;
	}
	for (i = 0; i < g_nrings; i++) {
		struct device *d = device_create(g_class, NULL,
						 MKDEV(MAJOR(g_devt), i), NULL,
						 KMOD_NAME "%u", i);
		if (IS_ERR(d)) {
			err = PTR_ERR(d);
			devices_destroy(i);
			goto out_class;
		}
	}
	pr_info(KMOD_NAME ": loaded, %u devices, ring %u KiB\n", g_nrings, ring_kb);
	return 0;
out_class:
	class_destroy(g_class);
out_cdev:
	cdev_del(&g_cdev);
out_region:
	unregister_chrdev_region(g_devt, g_nrings);
out_free:
	kfree(g_rings);
	return err;
}

static void __exit kmod_exit(void)
{
	devices_destroy(g_nrings);
	class_destroy(g_class);
	cdev_del(&g_cdev);
	unregister_chrdev_region(g_devt, g_nrings);
	kfree(g_rings);
	pr_info(KMOD_NAME ": unloaded\n");
}

module_init(kmod_init);
module_exit(kmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("sysdig-c syscall capture driver");
MODULE_VERSION("0.1.0");
MODULE_INFO(schema, SCHEMA_HASH_STR);
