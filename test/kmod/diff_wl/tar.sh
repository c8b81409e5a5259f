# tar: create a compressed archive of a small tree and extract it
mkdir -p /tmp/wl/tree/a/b && seq 1 500 >/tmp/wl/tree/a/b/f1 && echo hi >/tmp/wl/tree/f2
ln -s a/b/f1 /tmp/wl/tree/link
/usr/bin/tar -C /tmp/wl -czf /tmp/wl/t.tgz tree
mkdir -p /tmp/wl/x && /usr/bin/tar -C /tmp/wl/x -xzf /tmp/wl/t.tgz
/usr/bin/tar -tzvf /tmp/wl/t.tgz
