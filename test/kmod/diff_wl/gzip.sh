# gzip and gunzip of a generated file
seq 1 20000 >/tmp/wl/g.txt
/usr/bin/gzip -9 -k /tmp/wl/g.txt
/usr/bin/gzip -t /tmp/wl/g.txt.gz
/usr/bin/gzip -dc /tmp/wl/g.txt.gz | /usr/bin/cmp - /tmp/wl/g.txt
