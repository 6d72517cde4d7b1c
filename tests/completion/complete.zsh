#!/usr/bin/zsh -f
# Drives zsh's real completion system with the script `dispatchctl completion
# zsh` prints: an interactive zsh in a pseudo-terminal (zpty) with compinit,
# the script sourced, and TAB typed after a line; compadd is wrapped to record
# every match zsh's completion offers (what it would list or insert).
#   complete.zsh DISPATCHCTL SOURCE_DIR
zmodload zsh/zpty
dctl=${1:A} src=$2
bin=$(mktemp -d) scratch=$(mktemp -d)
trap 'zpty -d z 2>/dev/null; rm -rf $bin $scratch' EXIT
ln -s $dctl $bin/dispatchctl
failures=0

# complete LINE: the matches TAB offers after LINE, one per line, sorted.
complete() {
  local out=$scratch/out.$RANDOM
  : > $out
  zpty z "PATH=$bin:\$PATH TERM=dumb zsh -f -i"
  zpty -w z "PS1=''; autoload -U compinit && compinit -u -D; source <(dispatchctl completion zsh)"
  zpty -w z "compadd() { local -a hits; builtin compadd -O hits \"\$@\"; print -rl -- \$hits >> $out; builtin compadd \"\$@\" }"
  zpty -w z "print READY"
  zpty -r z _ '*READY*'
  zpty -w -n z "$1"$'\t'
  # Operator names come from a run of dispatchctl; wait for them (bounded).
  local i
  for i in {1..120}; do [[ -s $out ]] && break; sleep 0.25; done
  sleep 0.5
  zpty -d z
  sort -u $out
}

# expect LINE WORD...: every WORD is among the matches.
expect() {
  local line=$1 got
  shift
  got=" ${(j: :)${(f)"$(complete $line)"}} "
  for w in $@; do
    if [[ $got != *" $w "* ]]; then
      print "FAIL: '$line<TAB>' does not offer '$w'; got:${got[1,300]}"
      (( failures++ ))
      return
    fi
  done
  print "ok: '$line<TAB>' offers $*"
}

# expect_only LINE WORD...: exactly these matches.
expect_only() {
  local line=$1 got want
  shift
  got=${(j: :)${(f)"$(complete $line)"}}
  want=${(j: :)${(o)@}}
  if [[ $got != $want ]]; then
    print "FAIL: '$line<TAB>' gives '$got', expected '$want'"
    (( failures++ ))
  else
    print "ok: '$line<TAB>' -> $got"
  fi
}

while IFS=$'\t' read -r kind line words; do
  [[ $kind == '#'* || -z $kind ]] && continue
  line=${line//\{src\}/$src}
  if [[ $kind == only ]]; then expect_only "$line" ${=words}; else expect "$line" ${=words}; fi
done < ${0:A:h}/cases.tsv

(( failures == 0 )) && print OK || { print "$failures failure(s)"; exit 1 }
