# Drives fish's real completion with the script `dispatchctl completion fish`
# prints: `complete -C LINE` asks fish for what TAB would offer after LINE.
#   fish complete.fish DISPATCHCTL SOURCE_DIR
set -l dctl (realpath $argv[1])
set -l src $argv[2]
set -l bin (mktemp -d)
ln -s $dctl $bin/dispatchctl
set -gx PATH $bin $PATH
dispatchctl completion fish | source
set -g failures 0

# expect LINE WORD...: every WORD is among the completions (descriptions dropped).
function expect
    set -l line $argv[1]
    set -l got (complete -C "$line" | string replace -r '\t.*' '')
    for w in $argv[2..-1]
        if not contains -- $w $got
            echo "FAIL: '$line<TAB>' does not offer '$w'; got: "(string join ' ' $got[1..20])
            set failures (math $failures + 1)
            return
        end
    end
    echo "ok: '$line<TAB>' offers $argv[2..-1]"
end

# expect_only LINE WORD...: exactly these completions.
function expect_only
    set -l line $argv[1]
    set -l got (complete -C "$line" | string replace -r '\t.*' '' | sort -u)
    set -l want (printf '%s\n' $argv[2..-1] | sort -u)
    if test "$got" != "$want"
        echo "FAIL: '$line<TAB>' gives '$got', expected '$want'"
        set failures (math $failures + 1)
    else
        echo "ok: '$line<TAB>' -> $got"
    end
end

for case in (string match -rv '^#' < (dirname (status filename))/cases.tsv)
    set -l parts (string split \t -- $case)
    set -l line (string replace -a '{src}' $src -- $parts[2])
    if test $parts[1] = only
        expect_only "$line" (string split ' ' -- $parts[3])
    else
        expect "$line" (string split ' ' -- $parts[3])
    end
end

rm -rf $bin
if test $failures -eq 0
    echo OK
else
    echo "$failures failure(s)"
    exit 1
end
