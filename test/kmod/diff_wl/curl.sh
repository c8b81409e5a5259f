# curl fetches a file from busybox httpd on 127.0.0.1 (both host binaries)
mkdir -p /tmp/wl/www && seq 1 2000 >/tmp/wl/www/data.txt
/usr/bin/busybox httpd -f -p 127.0.0.1:8081 -h /tmp/wl/www &
H=$!
i=0
until /usr/bin/curl -s -o /tmp/wl/got.txt http://127.0.0.1:8081/data.txt || [ $i -gt 20 ]; do
	/usr/bin/sleep 0.2; i=$((i + 1))
done
kill $H
wait $H
/usr/bin/cmp /tmp/wl/got.txt /tmp/wl/www/data.txt
