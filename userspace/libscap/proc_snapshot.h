/*
 * proc_snapshot.h - the /proc snapshot that gives live engines their
 * metadata (machine, processes with their fds, interfaces, users, groups).
 */
#ifndef PROC_SNAPSHOT_H
#define PROC_SNAPSHOT_H

#include "scap.h"

/* fill m from /proc and the system databases; 0, or -1 with err filled */
int scap_proc_snapshot(struct scap_metadata *m, char *err);

/* socket inode -> fd description, from /proc/net/{tcp,tcp6,udp,udp6,unix};
 * used by the snapshot, exposed for tests */
struct scap_sock_table;
struct scap_sock_table *scap_sock_table_load(const char *proc_net_dir);
int scap_sock_table_lookup(const struct scap_sock_table *t, uint64_t ino, struct scap_fdinfo *out);
void scap_sock_table_free(struct scap_sock_table *t);

#endif
