//! A GTP engine run as a child process, for `triboard match`: started with `sh -c` in a process
//! group of its own, one command sent and its answer read with a timeout, its time per move and
//! `cputime` kept, and stopped (its group ended if it does not quit).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// Why a command to an engine brought no answer: the engine is then stopped.
pub type Broken = String;

/// A GTP engine run as a child process.
pub struct Engine {
    pub command: String,
    /// The engine's `name` and `version`, asked when it first starts.
    pub name: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<String>>,
    timeout: Duration,
    /// Wall time of each `genmove` it answered, in seconds (command sent to answer read).
    pub move_seconds: Vec<f64>,
    /// CPU time it reported through `cputime` at the end of each game, summed over its processes
    /// (a restarted engine starts again from 0), in seconds; `None` if it does not answer it.
    pub cpu_seconds: Option<f64>,
    /// Its last `cputime` answer in the process running now.
    cpu_seen: f64,
}

impl Engine {
    pub fn new(command: &str, timeout: Duration) -> Engine {
        Engine {
            command: command.to_string(),
            name: String::new(),
            child: None,
            stdin: None,
            lines: None,
            timeout,
            move_seconds: Vec::new(),
            cpu_seconds: None,
            cpu_seen: 0.0,
        }
    }

    /// Asks `cputime` (if the engine knows it) and adds what it used since the last answer.
    pub fn note_cputime(&mut self) {
        if self.child.is_none() || !self.send("known_command cputime").is_ok_and(|a| a.is_ok_and(|t| t == "true")) {
            return;
        }
        if let Ok(Ok(text)) = self.send("cputime")
            && let Ok(now) = text.trim().parse::<f64>()
        {
            // A smaller answer than before: the engine was restarted.
            let used = if now >= self.cpu_seen { now - self.cpu_seen } else { now };
            self.cpu_seen = now;
            *self.cpu_seconds.get_or_insert(0.0) += used;
        }
    }

    /// Starts the engine unless it runs.
    pub fn ensure_started(&mut self) -> Result<(), Broken> {
        if self.child.is_none() {
            self.cpu_seen = 0.0;
        }
        if self.child.is_some() {
            return Ok(());
        }
        let mut command = Command::new("sh");
        command.arg("-c").arg(&self.command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        // Its own process group, so that stopping it reaches the engine and not only `sh`.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| format!("cannot start: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        // The reader thread ends when the engine closes its output.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.stdin = child.stdin.take();
        self.lines = Some(rx);
        self.child = Some(child);
        if self.name.is_empty() {
            let name = self.send("name")?.unwrap_or_else(|_| "?".to_string());
            let version = self.send("version")?.unwrap_or_default();
            self.name = format!("{name} {version}").trim().to_string();
        }
        Ok(())
    }

    /// Sends one command: `Ok(Ok(text))` for `=`, `Ok(Err(reason))` for `?`, `Err` if the engine
    /// crashed or did not answer in time (it is then stopped).
    pub fn send(&mut self, command: &str) -> Result<Result<String, String>, Broken> {
        let result = self.exchange(command);
        if result.is_err() {
            self.stop();
        }
        result
    }

    fn exchange(&mut self, command: &str) -> Result<Result<String, String>, Broken> {
        let (Some(stdin), Some(lines)) = (self.stdin.as_mut(), self.lines.as_ref()) else {
            return Err("not running".to_string());
        };
        writeln!(stdin, "{command}").and_then(|()| stdin.flush()).map_err(|e| format!("crashed ({e})"))?;
        let mut status = None;
        let mut body: Vec<String> = Vec::new();
        loop {
            let line = match lines.recv_timeout(self.timeout) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(format!("no answer to '{command}' in time")),
                Err(RecvTimeoutError::Disconnected) => return Err(format!("crashed (no answer to '{command}')")),
            };
            let line = line.trim_end_matches('\r');
            match status {
                // Before the answer: skip anything that is not a status line.
                None => {
                    if let Some(rest) = line.strip_prefix('=').or_else(|| line.strip_prefix('?')) {
                        status = Some(line.starts_with('='));
                        body.push(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string());
                    }
                }
                Some(_) if line.is_empty() => break,
                Some(_) => body.push(line.trim().to_string()),
            }
        }
        let text = body.join("\n").trim().to_string();
        Ok(if status == Some(true) { Ok(text) } else { Err(text) })
    }

    /// Adds the times of `other`, another process of the same engine command (a worker of
    /// `match --concurrency`), to this one's, after stopping it.
    pub fn absorb(&mut self, mut other: Engine) {
        other.stop();
        self.move_seconds.append(&mut other.move_seconds);
        if let Some(cpu) = other.cpu_seconds {
            *self.cpu_seconds.get_or_insert(0.0) += cpu;
        }
        if self.name.is_empty() {
            self.name = std::mem::take(&mut other.name);
        }
    }

    /// Asks the engine to quit (and closes its input), and ends its process group if it has not
    /// quit within a second.
    pub fn stop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        if let Some(mut child) = self.child.take() {
            for _ in 0..20 {
                if matches!(child.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            if matches!(child.try_wait(), Ok(None)) {
                // The group this engine was started in (its id is the child's).
                #[cfg(unix)]
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .stderr(Stdio::null())
                    .status();
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        self.lines = None;
    }
}
