#!/bin/sh
# POST /api/cron/<job> with the CRON_SECRET bearer (docs/deployment.md, "Scheduled jobs").
# The bearer reaches curl on its standard input (`-H @-`), never its arguments, so it does not
# appear in a process list. The call goes through nginx over HTTPS: in production the service
# redirects plain HTTP to HTTPS on every route but the health probes.
set -eu
job="$1"
max_time="$2"
secret="$(cat /run/secrets/cron_secret)"
printf 'Authorization: Bearer %s\n' "$secret" |
  curl --silent --show-error --fail --max-time "$max_time" -X POST -H @- \
    --connect-to "::nginx:443" "${APP_BASE_URL}/api/cron/${job}" >/proc/1/fd/1 2>/proc/1/fd/2
