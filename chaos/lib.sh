# Shared by the chaos/ scripts (sourced, not run). Everything they start or write lives under
# chaos/run/: env (tokens, keys, settings of this cluster), <name>.pid, <name>.log, events.log.
# shellcheck shell=bash

CHAOS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$CHAOS_DIR")
RUN=$CHAOS_DIR/run
NODES=(1 2 3)
PROXY_PORT=15432
PG_HOST=127.0.0.1
PG_PORT=5432
CHAOS_DB=${CHAOS_DB:-boxoffice_chaos_drill}
# chaos/cluster up drops and creates this database: it must be the drill's own. Only names that
# start with boxoffice_chaos_ (lower-case letters, digits, _) are taken; anything else, such as a
# production or a shared test database named by mistake, is refused before anything runs.
if [[ ! $CHAOS_DB =~ ^boxoffice_chaos_[a-z0-9_]{1,40}$ ]]; then
  echo "$(basename "$0"): CHAOS_DB='$CHAOS_DB' is not a chaos database: the name must start with boxoffice_chaos_" \
    "(then a-z, 0-9, _), since chaos/cluster up drops it" >&2
  exit 2
fi
# The database proxy's fault: forward or blackhole (read by the proxy every 50 ms, see DbProxy).
PROXY_MODE_FILE=$RUN/dbproxy.mode
# Seconds a node gets to leave the cluster after SIGTERM before it is killed.
STOP_GRACE=${CHAOS_STOP_GRACE:-20}

http_port() { echo $((18080 + $1)); }
remote_port() { echo $((25520 + $1)); }
# Node N's outgoing remoting connections leave from this loopback address, so that
# chaos/partition can drop them too (the whole 127.0.0.0/8 is local on Linux).
remote_client_host() { echo "127.0.0.$((10 + $1))"; }
mgmt_port() { echo $((18580 + $1)); }

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
say() { echo "[$(date +%H:%M:%S)] $*"; }
now_ms() { date +%s%3N; }

# One line per fault or action, read by onsale-under-fire's verdict: epoch-ms <TAB> action <TAB> detail.
log_event() {
  mkdir -p "$RUN"
  printf '%s\t%s\t%s\n' "$(now_ms)" "$1" "${2:-}" >>"$RUN/events.log"
}

check_node_arg() {
  [[ ${1:-} =~ ^[123]$ ]] || die "node must be 1, 2 or 3 (got '${1:-}')"
}

load_env() {
  [[ -f $RUN/env ]] || die "no chaos cluster settings in $RUN/env: run chaos/cluster up first"
  set -a
  # shellcheck disable=SC1091
  . "$RUN/env"
  [[ -f $RUN/payments.env ]] && . "$RUN/payments.env"
  set +a
}

# The pid recorded for a process of ours (node-1, dbproxy, ...) if it is still that process.
pid_of() {
  local name=$1 pid
  [[ -f $RUN/$name.pid ]] || return 1
  pid=$(<"$RUN/$name.pid")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ -r /proc/$pid/cmdline ]] || return 1
  # Guard against a recycled pid: our processes carry -Dchaos.id=<name>.
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "-Dchaos.id=$name " || return 1
  echo "$pid"
}

is_running() { pid_of "$1" >/dev/null; }

# Stops the given process names: SIGTERM, then SIGKILL after the grace period.
stop_processes() {
  local grace=$1; shift
  local name pid pids=() deadline
  for name in "$@"; do
    if pid=$(pid_of "$name"); then
      kill -CONT "$pid" 2>/dev/null || true
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$name:$pid")
    fi
  done
  deadline=$(($(date +%s) + grace))
  for entry in "${pids[@]}"; do
    name=${entry%%:*}; pid=${entry##*:}
    while kill -0 "$pid" 2>/dev/null && (($(date +%s) < deadline)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      say "$name (pid $pid) did not stop within ${grace}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    # Reap it if it is our child; wait for the kernel to let go of it otherwise.
    while [[ -e /proc/$pid && $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]; do sleep 0.1; done
    rm -f "$RUN/$name.pid"
  done
}

# A short Maven run, offline first (no update checks), online when a plugin is not cached yet;
# its output goes to run/build.log and is shown only when it fails.
mvn_quietly() {
  mkdir -p "$RUN"
  if (cd "$ROOT" && mvn -B -q -o -Dstyle.color=never "$@") >"$RUN/build.log" 2>&1; then
    return 0
  fi
  if ! (cd "$ROOT" && mvn -B -q -Dstyle.color=never "$@") >>"$RUN/build.log" 2>&1; then
    tail -n 40 "$RUN/build.log" >&2
    return 1
  fi
}

JAR=$ROOT/server/target/boxoffice.jar

ensure_jar() {
  if [[ ! -f $JAR ]] || [[ -n $(find "$ROOT/server/src/main" "$ROOT/conf" "$ROOT/schema" "$ROOT/pom.xml" "$ROOT/server/pom.xml" -newer "$JAR" -type f -print -quit) ]]; then
    say "building server/target/boxoffice.jar (missing or older than the sources)"
    mvn_quietly -pl server package -DskipTests || die "cannot build server/target/boxoffice.jar"
  fi
}

# The classpath of the chaos tools (the tools module's classes and what they need, the server's
# test fixtures among them), built when stale. CHAOS_CP, when set (the integration test sets it),
# is used as it is.
test_classpath() {
  if [[ -n ${CHAOS_CP:-} ]]; then
    echo "$CHAOS_CP"
    return
  fi
  local stamp=$ROOT/tools/target/chaos.stamp cpfile=$ROOT/tools/target/tools.cp
  if [[ ! -f $stamp || ! -f $cpfile ]] \
      || [[ -n $(find "$ROOT/server/src" "$ROOT/tools/src" "$ROOT/pom.xml" "$ROOT/server/pom.xml" "$ROOT/tools/pom.xml" \
                 -newer "$stamp" -type f -print -quit) ]]; then
    # package: the tools' classpath names the server's jars, test fixtures included.
    mvn_quietly -pl tools -am package -DskipTests || die "mvn package of the tools failed"
    touch "$stamp"
  fi
  echo "$ROOT/tools/target/classes:$(<"$cpfile")"
}

# Writes run/<name>.pid for a process just started in the background and prints its pid.
record_pid() {
  local name=$1 pid=$2
  echo "$pid" >"$RUN/$name.pid"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    is_running "$name" && { echo "$pid"; return 0; }
    # setsid forks when it leads its process group: then find the JVM by its marker.
    pid=$(pgrep -f -- "-Dchaos.id=$name( |\$)" | head -n 1 || true)
    if [[ -n $pid ]]; then
      echo "$pid" >"$RUN/$name.pid"
    else
      pid=$2
    fi
    sleep 0.1
  done
  return 1
}

tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_proxy() {
  local cp pid
  is_running dbproxy && return 0
  # DbProxy needs nothing but its own class: no Maven run on the way back from an outage.
  cp=${CHAOS_CP:-$ROOT/server/target/test-classes}
  [[ -f $ROOT/server/target/test-classes/io/boxoffice/support/DbProxy.class || -n ${CHAOS_CP:-} ]] || cp=$(test_classpath)
  setsid java -Xmx64m -Dchaos.id=dbproxy -cp "$cp" io.boxoffice.support.DbProxy \
    "127.0.0.1:$PROXY_PORT" "$PG_HOST:$PG_PORT" "$PROXY_MODE_FILE" </dev/null >>"$RUN/dbproxy.log" 2>&1 &
  pid=$(record_pid dbproxy $!) || die "the database proxy did not start (see $RUN/dbproxy.log)"
  for _ in $(seq 1 50); do
    tcp_open "$PROXY_PORT" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  die "the database proxy did not start (see $RUN/dbproxy.log)"
}

# Starts node N with the cluster's settings; its output goes to run/node-N.log. On the first
# start (chaos/cluster up) the first seed may form the cluster; a restart ("rejoin") only ever
# joins the running one (BOXOFFICE_FORM_CLUSTER, see README), never forms an island of its own.
start_node() {
  local n=$1 mode=${2:-first} pid name="node-$1" form=false
  if is_running "$name"; then
    echo "node $n is already running (pid $(pid_of "$name"))" >&2
    return 0
  fi
  ensure_jar
  {
    echo "===== chaos: node $n starting at $(date -u +%FT%TZ) ====="
  } >>"$RUN/$name.log"
  # Where this incarnation's lines begin, for the readiness check.
  stat -c %s "$RUN/$name.log" >"$RUN/$name.logstart"
  local slow=()
  [[ -n ${CHAOS_PAYMENTS_SLOW_MS:-} ]] && slow+=("-Dboxoffice.payments.slow-delay=${CHAOS_PAYMENTS_SLOW_MS}ms")
  [[ -n ${CHAOS_PAYMENTS_FAILURE_RATE:-} ]] && slow+=("-Dboxoffice.payments.failure-rate=${CHAOS_PAYMENTS_FAILURE_RATE}")
  [[ $mode == first ]] && form=true
  # A node runs at niceness 0 whoever starts it. The drill runs its fans under nice 10 and
  # restarts killed nodes from that process (so do the rolls it runs): a node started from there
  # inherited nice 10 and, on cores shared with two nodes at 0, got about a tenth of their CPU
  # share while its JIT warmed up; it missed heartbeats and was downed (chaos/run/node-N.log:
  # "Marking node as UNREACHABLE" from the restarted node itself, then "SBR is downing" it).
  # Without the right to lower niceness (not root), nice warns and runs it as before.
  local renice=$((-$(nice)))
  (
    cd "$ROOT"
    export BOXOFFICE_FORM_CLUSTER=$form
    # A node that finds no cluster to join exits after this (conf/cluster.conf), as on
    # Kubernetes: when the resolver has downed every node, restarted ones would otherwise wait
    # for seeds forever and nobody would form the cluster again; with every process gone, the
    # drill restarts node 1 with --form-cluster. Longer than a join under the drill's load.
    export BOXOFFICE_JOIN_TIMEOUT=${CHAOS_JOIN_TIMEOUT:-90s}
    # Requests the node answers itself before it joins (boxoffice.warm-up in conf/boxoffice.conf).
    export BOXOFFICE_WARM_UP_REQUESTS=${CHAOS_WARM_UP_REQUESTS:-5000}
    export BOXOFFICE_HTTP_PORT=$(http_port "$n") BOXOFFICE_CLUSTER_HOST=127.0.0.1 \
      BOXOFFICE_CLUSTER_PORT=$(remote_port "$n") BOXOFFICE_MANAGEMENT_PORT=$(mgmt_port "$n")
    # The kernel shares the CPU between sessions ("autogroups", when sched_autogroup_enabled)
    # before nice counts, and nice only within a session: each node has a session of its own
    # (setsid), so the fans' nice 10 left the drill, the database proxy and PostgreSQL each a
    # node's share. A node restarted under load then got ~10% of a core while it started and
    # warmed up (top, drill of 2026-12-01), and was downed within seconds of joining, in 4 of 5
    # drills. Its session is given a higher weight (autogroup nice -5, as though each node had a
    # machine of its own before the load generator); without the right to (not root) it stays 0.
    # shellcheck disable=SC2086 # CHAOS_NODE_JAVA_OPTS is a list of options
    exec setsid sh -c 'echo -5 2>/dev/null >/proc/self/autogroup; exec "$@"' node nice -n "$renice" java -Xmx512m -XX:+UseParallelGC ${CHAOS_NODE_JAVA_OPTS:-} "${slow[@]}" \
      "-Dpekko.remote.artery.advanced.tcp.outbound-client-hostname=$(remote_client_host "$n")" "-Dchaos.id=$name" \
      -jar "$JAR" </dev/null >>"$RUN/$name.log" 2>&1
  ) &
  pid=$(record_pid "$name" $!) || die "node $n did not start (see $RUN/$name.log)"
  log_event start "node $n pid $pid"
}

# 404 from the stats of an event that does not exist: the node serves HTTP and reaches the inventory.
http_serves() {
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 3 -H "Authorization: Bearer $BOXOFFICE_ADMIN_TOKEN" \
    "http://127.0.0.1:$(http_port "$1")/admin/events/none/stats" 2>/dev/null)
  [[ $code == 404 ]]
}

# Pekko Management's readiness: 200 ready, 000 when no management answers (not there yet).
mgmt_code() {
  curl -s -o /dev/null -w '%{http_code}' -m 3 "http://127.0.0.1:$(mgmt_port "$1")/ready" 2>/dev/null || true
}

# Whether node N's current incarnation has joined the cluster, by its own log.
joined_by_log() {
  local n=$1 start=0
  [[ -f $RUN/node-$n.logstart ]] && start=$(<"$RUN/node-$n.logstart")
  tail -c +"$((start + 1))" "$RUN/node-$n.log" 2>/dev/null \
    | grep -q -E "Welcome from|is JOINING itself|to \[Up\]"
}

# A node serves when it answers HTTP, is ready by management (where there is one) and has joined.
node_serves() {
  local n=$1 code
  is_running "node-$n" || return 1
  http_serves "$n" || return 1
  code=$(mgmt_code "$n")
  if [[ $code == 000 ]]; then
    joined_by_log "$n"
  else
    [[ $code == 200 ]]
  fi
}

# Members Up as node N's Pekko Management sees them (GET /cluster/members); empty without management.
members_up() {
  local body
  body=$(curl -s -m 3 "http://127.0.0.1:$(mgmt_port "$1")/cluster/members" 2>/dev/null) || return 0
  [[ $body == *'"members"'* ]] || return 0
  grep -o '"status" *: *"Up"' <<<"$body" | wc -l
}

# Members moved to Up, by the leaders' logs (addresses seen in "Leader is moving node [...] to [Up]").
members_up_by_log() {
  cat "$RUN"/node-*.log 2>/dev/null | grep -o -E "moving node \[[^]]+\] to \[Up\]" | sort -u | wc -l
}

wait_serving() {
  local n=$1 timeout=$2 deadline
  deadline=$(($(date +%s) + timeout))
  while (($(date +%s) < deadline)); do
    node_serves "$n" && return 0
    is_running "node-$n" || { echo "node $n exited (see $RUN/node-$n.log)" >&2; return 1; }
    sleep 0.5
  done
  return 1
}

# iptables, installed from Debian's packages when missing; fails plainly when it cannot work here.
need_iptables() {
  if ! command -v iptables >/dev/null; then
    say "iptables is missing: installing Debian's iptables package"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iptables) >/dev/null 2>&1 \
      || die "cannot install iptables (apt-get install iptables failed)"
  fi
  iptables -S INPUT >/dev/null 2>&1 || die "iptables does not work here (needs root and CAP_NET_ADMIN): $(iptables -S INPUT 2>&1 | head -1)"
}
