/*
 * memengine.h - a scap engine that returns events built in memory, for
 * the libsinsp unit tests, plus a small event builder.
 */
#ifndef MEMENGINE_H
#define MEMENGINE_H

#include <stdint.h>
#include "scap.h"

/* a new handle with empty metadata and no events */
struct scap *mem_open(void);
/* start an event; then add its parameters in table order */
void ev_begin(struct scap *h, uint16_t type, uint64_t tid, uint64_t ts);
void ev_i64(struct scap *h, int64_t v);
void ev_u32(struct scap *h, uint32_t v);
void ev_u16(struct scap *h, uint16_t v);
void ev_u8(struct scap *h, uint8_t v);
void ev_str(struct scap *h, const char *s);
void ev_bytes(struct scap *h, const void *p, uint32_t len);
/* socktuple / sockaddr values (ports in host order, ips as dotted strings) */
void ev_tuple4(struct scap *h, const char *sip, uint16_t sport, const char *dip, uint16_t dport);
void ev_addr4(struct scap *h, const char *ip, uint16_t port);
void ev_tuple6(struct scap *h, const char *sip, uint16_t sport, const char *dip, uint16_t dport);
void ev_addr6(struct scap *h, const char *ip, uint16_t port);
void ev_end(struct scap *h, uint32_t dump_flags);
/* enter + exit shorthand helpers are in the tests */

/* metadata helpers */
struct scap_threadinfo *mem_thread(struct scap *h, int64_t tid, int64_t pid, int64_t ptid,
				   const char *comm, const char *cwd);
struct scap_fdinfo *mem_fd_file(struct scap_threadinfo *t, int64_t fd, const char *name);
/* interfaces of the IL block (addresses as strings) */
void mem_iface4(struct scap *h, const char *ifname, const char *addr, const char *netmask);
void mem_iface6(struct scap *h, const char *ifname, const char *addr);
/* makes the next scap_next() return SCAP_NEW_SECTION before the next event */
void mem_new_section(struct scap *h);

#endif
