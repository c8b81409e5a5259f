/*
 * savefile.h - private definitions shared by the .scap reader
 * (savefile_read.c), the writer (savefile_write.c) and their tests.
 *
 * Block type ids and fixed sizes follow docs/scap_format.md.
 * All on-disk integers are little-endian and unaligned; the cursor helpers
 * below read them with memcpy and never step past the end of their buffer.
 */
#ifndef SAVEFILE_H
#define SAVEFILE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* block types (docs/scap_format.md, "Blocks") */
#define SHB_BLOCK_TYPE 0x0A0D0D0Au
#define MI_BLOCK_TYPE 0x201u
#define MI_BLOCK_TYPE_INT 0x8002ABCDu
#define PL_BLOCK_TYPE_V1 0x202u
#define PL_BLOCK_TYPE_V1_INT 0x8000ABCDu
#define PL_BLOCK_TYPE_V2 0x207u
#define PL_BLOCK_TYPE_V2_INT 0x8013ABCDu
#define PL_BLOCK_TYPE_V3 0x209u
#define PL_BLOCK_TYPE_V3_INT 0x8014ABCDu
#define PL_BLOCK_TYPE_V4 0x210u
#define PL_BLOCK_TYPE_V5 0x211u
#define PL_BLOCK_TYPE_V6 0x212u
#define PL_BLOCK_TYPE_V7 0x213u
#define PL_BLOCK_TYPE_V8 0x214u
#define PL_BLOCK_TYPE_V9 0x215u
#define FDL_BLOCK_TYPE 0x203u
#define FDL_BLOCK_TYPE_INT 0x8001ABCDu
#define FDL_BLOCK_TYPE_V2 0x218u
#define EV_BLOCK_TYPE 0x204u
#define EV_BLOCK_TYPE_INT 0x8010ABCDu
#define EV_BLOCK_TYPE_V2 0x216u
#define EV_BLOCK_TYPE_V2_LARGE 0x221u
#define EVF_BLOCK_TYPE 0x208u
#define EVF_BLOCK_TYPE_V2 0x217u
#define EVF_BLOCK_TYPE_V2_LARGE 0x222u
#define IL_BLOCK_TYPE 0x205u
#define IL_BLOCK_TYPE_INT 0x8011ABCDu
#define IL_BLOCK_TYPE_V2 0x219u
#define UL_BLOCK_TYPE 0x206u
#define UL_BLOCK_TYPE_INT 0x8012ABCDu
#define UL_BLOCK_TYPE_V2 0x220u

#define SHB_MAGIC 0x1A2B3C4Du
#define SHB_MAJOR 1
#define SHB_MINOR 2
#define SHB_BLOCK_LEN 28u
#define MI_BODY_LEN 180u
#define READER_BUF_SIZE 65536u
#define EVT_HDR_V1_LEN 22u

/* metadata limits enforced by the reader (docs/scap_format.md) */
#define SCAP_MAX_PATH_SIZE 1024u
#define SCAP_MAX_ARGS_SIZE 4096u
#define SCAP_MAX_ENV_SIZE 4096u
#define SCAP_MAX_CGROUPS_SIZE 4096u
#define SCAP_MAX_CRED_LEN 256u

#define USERBLOCK_TYPE_USER 0
#define USERBLOCK_TYPE_GROUP 1

/* interface entry types (docs/scap_format.md, IL) */
#define SCAP_II_IPV4 1
#define SCAP_II_IPV6 2
#define SCAP_II_IPV4_NOLINKSPEED 3
#define SCAP_II_IPV6_NOLINKSPEED 4

static inline uint16_t rd16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* 0 plain event block, 1 flagged, 2 v1 plain, 3 v1 flagged; -1 not an event */
enum evblock_kind { EVB_NONE = -1, EVB_V2, EVB_V2F, EVB_V1, EVB_V1F };

static inline int evblock_kind(uint32_t type)
{
	switch (type) {
	case EV_BLOCK_TYPE_V2:
	case EV_BLOCK_TYPE_V2_LARGE:
		return EVB_V2;
	case EVF_BLOCK_TYPE_V2:
	case EVF_BLOCK_TYPE_V2_LARGE:
		return EVB_V2F;
	case EV_BLOCK_TYPE:
	case EV_BLOCK_TYPE_INT:
		return EVB_V1;
	case EVF_BLOCK_TYPE:
		return EVB_V1F;
	default:
		return EVB_NONE;
	}
}

static inline int evblock_is_large(uint32_t type)
{
	return type == EV_BLOCK_TYPE_V2_LARGE || type == EVF_BLOCK_TYPE_V2_LARGE;
}

/* Padded total length of a block with an n-byte body. */
static inline uint32_t block_total_len(uint32_t n)
{
	return (8 + n + 4 + 3) & ~3u;
}

/* Bounds-checked reading cursor over one block body or entry. */
struct cursor {
	const uint8_t *p, *end;
	int bad;		/* set once a read ran past end */
};

static inline size_t cur_left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}

static inline const uint8_t *cur_take(struct cursor *c, size_t n)
{
	const uint8_t *p = c->p;

	if (c->bad || cur_left(c) < n) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return p;
}

static inline uint8_t cur_u8(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 1);
	return p ? p[0] : 0;
}

static inline uint16_t cur_u16(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 2);
	return p ? rd16(p) : 0;
}

static inline uint32_t cur_u32(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 4);
	return p ? rd32(p) : 0;
}

static inline uint64_t cur_u64(struct cursor *c)
{
	const uint8_t *p = cur_take(c, 8);
	return p ? rd64(p) : 0;
}

/* Metadata block parsers (savefile_read.c), exposed for unit tests:
 * parse one block body into m; 0 or -1 with a message in err. */
struct scap_metadata;
int savefile_parse_block(struct scap_metadata *m, uint32_t type,
			 const uint8_t *body, size_t len, char *err);

/* Convert a v1 event (22-byte header) of at most avail bytes into a v2
 * event in out (room for avail + 4 bytes); 0 or -1 with err. */
int savefile_convert_v1(const uint8_t *ev, size_t avail, uint8_t *out,
			char *err);

#endif
