#!/bin/sh
# A stop observer in POSIX sh, meeting the contract cursorhooks/observer meets in Node. Cursor
# runs it as `stop-observer.sh cursor-event stop --binding <selector>` with the stop payload on
# stdin. It answers {} and a newline once and exits 0, whatever arrives.
DEADLINE=3  # seconds, under the entry's 5 s timeout
answer() {
  printf '{}\n' 2>/dev/null
  exit 0
}
trap answer TERM INT HUP
trap '' PIPE  # a closed stdout makes printf fail (EPIPE) instead of killing the script

if [ "$#" -ne 4 ] || [ "$1" != cursor-event ] || [ "$2" != stop ] || [ "$3" != --binding ] ||
  [ -z "$4" ]; then
  echo 'stop-observer: not run as cursor-event stop --binding <selector>' >&2
  answer
fi
payload=$(mktemp) || answer

# Read at most 1 MiB + 1 KiB (1025 reads of at most 1 KiB), and only until the deadline: a
# background job's stdin is /dev/null unless redirected, so the reader takes it from fd 3.
exec 3<&0
dd bs=1024 count=1025 of="$payload" <&3 2>/dev/null &
reader=$!
(sleep "$DEADLINE"; kill "$reader") </dev/null >/dev/null 2>&1 3<&- &
watchdog=$!
if wait "$reader"; then
  kill "$watchdog" 2>/dev/null
  # The long work, detached, with none of Cursor's pipes: it reads the payload file (which
  # may start with byte-order marks) and removes it. Here: one line per stop in a log.
  (wc -c <"$payload" >>"$4.stops.log"; rm -f "$payload") </dev/null >/dev/null 2>&1 3<&- &
else
  rm -f "$payload"  # still open at the deadline: answer, do nothing
fi
answer
