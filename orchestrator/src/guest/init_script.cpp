#include "guest/init_script.h"

namespace bb {

namespace {
constexpr const char* k_prologue =
    R"(#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
read up idle < /proc/uptime
echo "BOOTBENCH-MARKER boot-done $up"
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
)"
    // Linux ignores an unknown `module.param` silently: read
    // each one back so the host can flag a parameter that did
    // not take (console/param_check.h). After the marker, so it
    // costs the boot time nothing.
    R"(set -f
for arg in $(cat /proc/cmdline); do
  [ "$arg" = "--" ] && break
  name=${arg%%=*}
  case "$name" in *.*) ;; *) continue ;; esac
  module=$(echo "${name%%.*}" | tr - _)
  param=$(echo "${name#*.}" | tr - _)
  file=/sys/module/$module/parameters/$param
  if [ -f "$file" ]; then
    if read -r value < "$file"; then
      echo "BOOTBENCH-PARAM $name applied $value"
    else
      echo "BOOTBENCH-PARAM $name unreadable"
    fi
  elif [ -f "/lib/modules/$module.ko" ]; then
    echo "BOOTBENCH-PARAM $name module-file"
  elif [ -f "$workload" ] && grep -qF "$name=" "$workload"; then
    echo "BOOTBENCH-PARAM $name workload"
  elif [ -d "/sys/module/$module" ]; then
    echo "BOOTBENCH-PARAM $name no-parameter"
  else
    echo "BOOTBENCH-PARAM $name no-module"
  fi
done
set +f
)"
    // initcall_debug logs each initcall at KERN_DEBUG, into the
    // ring buffer but not onto the console: dump those lines
    // (console/initcall_trace.h), after the marker like the
    // readback. The kernel's own parameter says whether it is on.
    R"sh(if [ "$(cat /sys/module/kernel/parameters/initcall_debug 2>/dev/null)" = Y ]; then
  echo "BOOTBENCH-KMSG begin"
  dmesg | sed -n -e '1s/^/BOOTBENCH-KMSG first /p' -e '/] calling  /s/^/BOOTBENCH-KMSG /p' \
    -e '/] initcall /s/^/BOOTBENCH-KMSG /p' -e '/] Run \/init as init process/s/^/BOOTBENCH-KMSG /p'
  echo "BOOTBENCH-KMSG end"
fi
)sh";

constexpr const char* k_epilogue = R"(read up idle < /proc/uptime
echo "BOOTBENCH-MARKER end $up"
sync
poweroff -f
)";

// The prologue with `workload=` set after its #! line: a workload script reads its own settings
// (e.g. sync_rcu.threads=64) as dotted words of the command line, and the readback loop leaves
// the ones it names to it instead of flagging them as kernel parameters that did not take.
//
// Each boot module is loaded before the marker with busybox's insmod (the applet links are made
// after it); one that fails is said on the console, and the boot goes on to its marker.
std::string prologue_for(const std::string& workload_path,
                         const std::vector<std::string>& boot_modules) {
    std::string prologue = k_prologue;
    std::string loads;
    for (const auto& name : boot_modules) {
        loads += "/bin/busybox insmod /lib/modules/" + name + ".ko || echo \"bootbench: insmod " +
                 name + " failed\"\n";
    }
    prologue.insert(prologue.find("read up idle"), loads);
    prologue.insert(prologue.find('\n') + 1, "workload=" + workload_path + "\n");
    return prologue;
}
} // namespace

std::string default_init_script(const std::vector<std::string>& boot_modules) {
    return prologue_for("/workload", boot_modules) + "[ -x /workload ] && /workload\n" + k_epilogue;
}

std::string init_script_running(const std::string& workload_path,
                                const std::vector<std::string>& boot_modules) {
    // A failed workload makes the sample a failure instead of an "ok" boot without results.
    return prologue_for(workload_path, boot_modules) + "/bin/busybox sh " + workload_path +
           " || echo \"BOOTBENCH-MARKER workload-failed $?\"\n" + k_epilogue;
}

} // namespace bb
