/*
 * scap_event.c - parameter decoding shared by every engine.
 *
 * An event (driver/event_format.h) is a 26-byte header, an array of
 * nparams lengths (u16, or u32 for EF_LARGE_PAYLOAD event types) and the
 * values back to back (docs/scap_format.md, "Events").  scap_decode_params() points
 * evt->pval[i] at each value after checking that it lies inside the event.
 */
#include <string.h>
#include "scap.h"

void scap_evt_write_header(uint8_t *hdr, uint64_t ts, uint64_t tid, uint32_t len, uint16_t type,
			   uint32_t nparams)
{
	memcpy(hdr + PPM_HDR_OFF(ts), &ts, sizeof(ts));
	memcpy(hdr + PPM_HDR_OFF(tid), &tid, sizeof(tid));
	memcpy(hdr + PPM_HDR_OFF(len), &len, sizeof(len));
	memcpy(hdr + PPM_HDR_OFF(type), &type, sizeof(type));
	memcpy(hdr + PPM_HDR_OFF(nparams), &nparams, sizeof(nparams));
}

int scap_decode_params(struct scap_evt *evt)
{
	const uint8_t *d = evt->data;
	uint32_t len = evt->len, n_evt, n, i, width;
	const struct ppm_event_info *info;
	uint16_t type;
	uint64_t off, total;

	evt->nparams = 0;
	if (len < PPM_EVT_HDR_LEN)
		return -1;
	memcpy(&type, d + PPM_HDR_OFF(type), sizeof(type));
	memcpy(&n_evt, d + PPM_HDR_OFF(nparams), sizeof(n_evt));
	info = ppm_event_info_of(type);
	if (!info)
		return -1;
	width = (info->flags & EF_LARGE_PAYLOAD) ? 4 : 2;
	off = PPM_EVT_HDR_LEN + (uint64_t)n_evt * width;
	if (off > len)
		return -1;
	n = info->nparams;
	if (n > n_evt)
		n = n_evt;
	if (n > PPM_MAX_EVENT_PARAMS)
		n = PPM_MAX_EVENT_PARAMS;
	for (i = 0; i < n; i++) {
		const uint8_t *lp = d + PPM_EVT_HDR_LEN + (size_t)i * width;
		uint32_t plen;

		if (width == 4) {
			memcpy(&plen, lp, 4);
		} else {
			uint16_t l16;

			memcpy(&l16, lp, 2);
			plen = l16;
		}
		total = off + plen;
		if (total > len)
			return -1;
		evt->pval[i] = d + off;
		evt->plen[i] = plen;
		off = total;
	}
	evt->nparams = n;
	return 0;
}
