//! `serve-bench --soak`'s servers: the real `triboard serve` binary started as separate processes
//! on one PostgreSQL database, so that each one's resident memory and open file descriptors can
//! be read from `/proc` ([`Usage`]) while the load runs; stopped (killed) when dropped.

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long a server may take to say it listens.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// One server process's use of the machine at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Resident memory (`VmRSS` of `/proc/PID/status`), in KiB.
    pub rss_kib: u64,
    /// Open file descriptors (the entries of `/proc/PID/fd`): sockets, the database's, files.
    pub fds: u64,
}

impl Usage {
    /// Process `pid`'s use now.
    ///
    /// # Errors
    /// A sentence: the process is gone, or `/proc` cannot be read (not Linux).
    pub fn of(pid: u32) -> Result<Usage, String> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .map_err(|e| format!("cannot read /proc/{pid}/status (is the server gone?): {e}"))?;
        let rss_kib = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| format!("no VmRSS in /proc/{pid}/status"))?;
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .map_err(|e| format!("cannot list /proc/{pid}/fd: {e}"))?
            .count() as u64;
        Ok(Usage { rss_kib, fds })
    }

    /// As JSON: `{"rss_mib": …, "fds": …}`, the memory in MiB to 0.1.
    pub fn json(self) -> Value {
        json!({ "rss_mib": (self.rss_kib as f64 / 102.4).round() / 10.0, "fds": self.fds })
    }
}

/// The server processes, killed when dropped.
pub struct ServerProcs {
    /// Each one's child process.
    children: Vec<Child>,
    /// Each one's address (`127.0.0.1:PORT`).
    pub addrs: Vec<SocketAddr>,
    /// Each one's log (its stderr), in the temporary folder.
    pub logs: Vec<PathBuf>,
}

impl ServerProcs {
    /// Starts `instances` servers of this very binary (`triboard serve --addr 127.0.0.1:0 --db
    /// URL --no-limits --no-bots`) and waits until each prints the address it listens on.
    ///
    /// # Errors
    /// A sentence: the binary cannot be found or started, or a server stops or stays silent
    /// ([`START_TIMEOUT`]) before it listens (its log's end is quoted).
    pub fn start(url: &str, instances: usize) -> Result<ServerProcs, String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let mut procs = ServerProcs { children: Vec::new(), addrs: Vec::new(), logs: Vec::new() };
        for k in 0..instances {
            let log = std::env::temp_dir().join(format!("triboard-soak-{}-{k}.log", std::process::id()));
            let stderr = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
            let mut child = Command::new(&exe)
                .args(["serve", "--addr", "127.0.0.1:0", "--no-limits", "--no-bots", "--db", url])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(stderr)
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
            let stdout = child.stdout.take();
            procs.children.push(child);
            procs.logs.push(log.clone());
            let addr = stdout.and_then(listening_addr).ok_or_else(|| {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                let tail: String = text.lines().rev().take(5).collect::<Vec<_>>().join(" / ");
                format!("server {k} did not say where it listens within {} s: {tail}", START_TIMEOUT.as_secs())
            })?;
            procs.addrs.push(addr);
        }
        Ok(procs)
    }

    /// Each server's process id, in the order of [`ServerProcs::addrs`].
    pub fn pids(&self) -> Vec<u32> {
        self.children.iter().map(Child::id).collect()
    }

    /// Each server's use now.
    ///
    /// # Errors
    /// As [`Usage::of`]: a server is gone.
    pub fn usage(&self) -> Result<Vec<Usage>, String> {
        self.pids().into_iter().map(Usage::of).collect()
    }
}

impl Drop for ServerProcs {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
        for log in &self.logs {
            let _ = std::fs::remove_file(log);
        }
    }
}

/// Reads a server's stdout until its `listening on http://ADDR` line, on a thread of its own so
/// that a silent server is given up after [`START_TIMEOUT`]; the rest of its stdout is read and
/// dropped by that thread, so the server never blocks on a full pipe.
fn listening_addr(stdout: std::process::ChildStdout) -> Option<SocketAddr> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(addr) = line.strip_prefix("listening on http://").and_then(|a| a.trim().parse().ok())
                && let Some(tx) = tx.take()
            {
                let _ = tx.send(addr);
            }
        }
    });
    let deadline = Instant::now() + START_TIMEOUT;
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).ok()
}
