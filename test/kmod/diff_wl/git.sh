# git: init, add, commit, log in a new repository
mkdir -p /tmp/wl/repo && cd /tmp/wl/repo
/usr/bin/git init -q .
echo "hello" >README
/usr/bin/git add README
/usr/bin/git -c user.name=rig -c user.email=rig@localhost commit -q -m first
/usr/bin/git log --oneline
