/*
 * ifaces.c - the machine's network interfaces (the IL block of the file)
 * as the socket state uses them: which address is "local", and the source
 * address that fills a socket whose tuple has a zero one (a UDP sender not
 * bound to an address, a socket of the /proc snapshot). The rules are the
 * reference's (libsinsp ifinfo): an exact interface, else one in the same
 * subnet (IPv6: the same /64), else the first non-loopback one.
 */
#include <string.h>
#include "sinsp_int.h"

static const uint8_t v6_zero[16];
static const uint8_t v6_loopback[16] = { [15] = 1 };

int iface_ipv4_local(const struct scap_metadata *m, const uint8_t *ip)
{
	uint32_t a;

	memcpy(&a, ip, 4);
	for (uint32_t i = 0; m && i < m->nipv4; i++)
		if (m->ipv4[i].addr == a)
			return 1;
	return 0;
}

/* IPv6 "same subnet" is the same first 64 bits, whatever the netmask */
static int same_v6_net(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, 8) == 0;
}

int iface_ipv6_local(const struct scap_metadata *m, const uint8_t *ip)
{
	for (uint32_t i = 0; m && i < m->nipv6; i++)
		if (same_v6_net(ip, m->ipv6[i].addr))
			return 1;
	return 0;
}

static uint32_t infer_ipv4(const struct scap_metadata *m, uint32_t peer)
{
	const uint32_t loopback = 0x0100007f;	/* 127.0.0.1, network order */
	uint32_t i;

	for (i = 0; i < m->nipv4; i++)
		if (m->ipv4[i].addr == peer)
			return peer;
	for (i = 0; i < m->nipv4; i++)
		if ((m->ipv4[i].addr & m->ipv4[i].netmask) == (peer & m->ipv4[i].netmask))
			return m->ipv4[i].addr;
	for (i = 0; i < m->nipv4; i++)
		if (m->ipv4[i].addr != loopback)
			return m->ipv4[i].addr;
	return 0;
}

static const uint8_t *infer_ipv6(const struct scap_metadata *m, const uint8_t *peer)
{
	uint32_t i;

	for (i = 0; i < m->nipv6; i++)
		if (memcmp(m->ipv6[i].addr, peer, 16) == 0)
			return m->ipv6[i].addr;
	for (i = 0; i < m->nipv6; i++)
		if (same_v6_net(m->ipv6[i].addr, peer))
			return m->ipv6[i].addr;
	for (i = 0; i < m->nipv6; i++)
		if (memcmp(m->ipv6[i].addr, v6_loopback, 16) != 0)
			return m->ipv6[i].addr;
	return v6_zero;
}

/* a zero end of a socket tuple is guessed from the interfaces: the source
 * from the peer, else the peer from the source; when both ends would be
 * the same address and port the tuple is left alone */
void iface_fill_zero_addr(const struct scap_metadata *m, struct sinsp_fdinfo *fdi)
{
	if (!m)
		return;
	if (fdi->type == SCAP_FD_IPV4_SOCK) {
		uint32_t sip, dip, a;

		memcpy(&sip, fdi->sip, 4);
		memcpy(&dip, fdi->dip, 4);
		if (sip && dip)
			return;
		if (!sip) {
			a = infer_ipv4(m, dip);
			if (a == dip && fdi->sport == fdi->dport)
				return;
			memcpy(fdi->sip, &a, 4);
		} else {
			a = infer_ipv4(m, sip);
			memcpy(fdi->dip, &a, 4);
		}
	} else if (fdi->type == SCAP_FD_IPV6_SOCK) {
		const uint8_t *a;
		int szero = memcmp(fdi->sip, v6_zero, 16) == 0;
		int dzero = memcmp(fdi->dip, v6_zero, 16) == 0;

		if (!szero && !dzero)
			return;
		if (szero) {
			a = infer_ipv6(m, fdi->dip);
			if (memcmp(a, fdi->dip, 16) == 0 && fdi->sport == fdi->dport)
				return;
			memmove(fdi->sip, a, 16);
		} else {
			memmove(fdi->dip, infer_ipv6(m, fdi->sip), 16);
		}
	}
}
