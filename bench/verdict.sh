# bench/verdict.sh — side-effect-free verdict helpers, sourced by run.sh and
# answers.sh.

# at_most VALUE TARGET: prints **PASS** when VALUE is a number no larger
# than TARGET, else **FAIL**. A missing or non-numeric VALUE (no RSS from
# /usr/bin/time, no median from benchtool) is FAIL: missing data never
# passes.
at_most() {
  awk -v v="$1" -v t="$2" 'BEGIN {
    if (v !~ /^[0-9]+([.][0-9]+)?$/) print "**FAIL**"
    else print (v + 0 <= t + 0) ? "**PASS**" : "**FAIL**"
  }'
}
