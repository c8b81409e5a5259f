/* tracers_edge_wl.c - the workload of tracers_edge.scap (README.md): edge cases of
 * sysdig tracer writes to /dev/null; built as trw_wl, recorded with our BPF driver:
 * sysdig-c -z -w tracers_edge.scap proc.name=trw_wl */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
static int fd;
static void w(const char *s) { if (write(fd, s, strlen(s)) < 0) _exit(2); }
int main(void)
{
	fd = open("/dev/null", O_WRONLY);
	w(">:t:first::");
	w(">:-5:neg::");
	w("<:-5:neg::");
	w(">:x1:a::");
	w(">:t:a<b::");
	w(">:t:a:name:");
	w(">:t:a:k=v=w:");
	w(">:t::noargs=1:");
	w("<:t:::");
	w("[\"<\", \"t\", [\"json\"], []]");
	w("[\"<\", 12, [\"json\"");
	w("], []]");
	w("[\"<\", 12 x");
	w(">:t:tail:k=v:junk");
	w(">:g:gid::");
	w("<:g:gid::");
	w(">:tx:weird::");
	w("[\">\", \"pp\", [\"pj\"], [{\"a\":\"1\"}, {\"b\":\"2\"}]]");
	w("<:t:first::");
	w("<:t:0tag::");
	w(">:0:zero::");
	w("<:t:after.zero::");
	close(fd);
	return 0;
}
