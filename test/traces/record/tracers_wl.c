/* tracers_wl.c - the workload of tracers.scap (README.md): sysdig tracer writes
 * to /dev/null (nested spans, ids, escapes, split, too long, JSON); built as
 * trw_wl, recorded with our BPF driver: sysdig-c -z -w tracers.scap proc.name=trw_wl */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static void w(int fd, const char *s) { if (write(fd, s, strlen(s)) < 0) _exit(2); }
static void nap(long ms) { struct timespec t = { 0, ms * 1000000L }; nanosleep(&t, 0); }
int main(void)
{
	int fd = open("/dev/null", O_WRONLY);
	w(fd, ">:t:app.req:method=GET,url=/x:");
	nap(5);
	w(fd, ">:t:app.req.db:q=select:");
	nap(3);
	w(fd, "<:t:app.req.db::");
	w(fd, "<:t:app.req:status=200:");
	w(fd, ">:p:job::");
	w(fd, "<:p:job::");
	w(fd, ">:1234:num.id:k=v:");
	w(fd, "<:1234:num.id::");
	w(fd, ">:pp:parent.id::");
	w(fd, "<:pp:parent.id::");
	w(fd, ">::glob::");
	w(fd, "<::glob::");
	w(fd, "hello not a tracer");
	w(fd, ">:t:after.bad::");
	w(fd, ">:t:esc\\.aped:a\\,b=c\\:d:");
	w(fd, "<:t:esc\\.aped::");
	w(fd, ">:t:long.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:x=1:");
	w(fd, "<:t:long.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa::");
	w(fd, ">:t:split.");
	w(fd, "tag::");
	w(fd, "<:t:split.tag::");
	w(fd, "[\">\", 12, [\"json\", \"tag\"], [{\"a\":\"1\"}]]");
	w(fd, "[\"<\", 12, [\"json\", \"tag\"], []]");
	w(fd, "<:t:after.bad::");
	close(fd);
	return 0;
}
