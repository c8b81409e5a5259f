# perl: file I/O, a regex over it, fork + wait, a pipe
exec /usr/bin/perl -e '
open(my $f, ">", "/tmp/wl/p.txt") or die; print $f "line $_\n" for 1..300; close $f;
open($f, "<", "/tmp/wl/p.txt") or die; my $n = grep { /7/ } <$f>; close $f;
print "$n\n";
pipe(my $r, my $w) or die;
my $pid = fork(); if ($pid == 0) { close $r; print $w "child\n"; exit 0 }
close $w; print scalar <$r>; waitpid($pid, 0); unlink "/tmp/wl/p.txt";'
