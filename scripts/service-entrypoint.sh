#!/bin/sh
# Starts the service named by $SERVICE in its container. The service listens on <NAME>_HOST:<NAME>_PORT; unless
# they are set, on every interface (0.0.0.0) at the image's $PORT, so that other containers and probes reach it.
set -eu
name=$(echo "$SERVICE" | tr 'a-z' 'A-Z')
eval "export ${name}_HOST=\"\${${name}_HOST:-0.0.0.0}\" ${name}_PORT=\"\${${name}_PORT:-$PORT}\""
exec node "/app/services/$SERVICE/dist/index.js"
