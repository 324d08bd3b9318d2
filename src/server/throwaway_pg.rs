//! A throwaway PostgreSQL cluster for the tests and benches ([`Cluster`]): `initdb` in a temporary
//! folder, `postgres` on a free port of the loopback address only (and a Unix socket in that
//! folder), with PostgreSQL's durability defaults (`fsync` and synchronous commits on); stopped
//! and removed when dropped, or by a watchdog when the process that started it ends, however it
//! ends. [`test_database`] gives each test a fresh database on one cluster per test process
//! ([`shared`]), or on the cluster `TRIBOARD_TEST_PG` names.
//!
//! PostgreSQL refuses to run as root: as root, `initdb` and `postgres` run as the `postgres` user
//! (Debian's package makes it), else `nobody`, through `runuser`, the folder theirs.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::postgres_conn::Target;

/// How long a new cluster may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running PostgreSQL cluster in a temporary folder: see the module's doc.
#[derive(Debug)]
pub struct Cluster {
    /// The temporary folder: the data in `data/`, the socket, the log `log`.
    dir: PathBuf,
    port: u16,
    /// The postmaster; `None` once stopped.
    child: Option<Child>,
}

impl Cluster {
    /// Makes a cluster in a new temporary folder and starts it on a free port of 127.0.0.1;
    /// returns once it accepts connections. Its superuser is `postgres`, trusted without a
    /// password (only this machine can connect).
    ///
    /// # Errors
    /// PostgreSQL is not installed (no `initdb` on the `PATH` or in `/usr/lib/postgresql/*/bin`),
    /// `initdb` fails, or the server does not start within a minute (the log's end is given).
    pub fn start() -> Result<Cluster, String> {
        let bin = binaries().ok_or("PostgreSQL is not installed (no initdb on the PATH or in /usr/lib/postgresql)")?;
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("triboard-pg-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let user = run_as()?;
        if let Some(user) = &user {
            chown(&dir, user)?;
        }
        let data = dir.join("data");
        let initdb = as_user(&user, &bin.join("initdb"))
            .current_dir(&dir)
            .arg("-D")
            .arg(&data)
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            .output()
            .map_err(|e| format!("initdb: {e}"))?;
        if !initdb.status.success() {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(format!("initdb failed: {}", String::from_utf8_lossy(&initdb.stderr)));
        }
        let mut last = String::new();
        for _ in 0..3 {
            let port = free_port()?;
            let log = std::fs::File::create(dir.join("log")).map_err(|e| format!("the log: {e}"))?;
            let mut child = as_user(&user, &bin.join("postgres"))
                .arg("-D")
                .arg(&data)
                .arg("-k")
                .arg(&dir)
                .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-c", "fsync=on", "-c", "max_connections=200"])
                .current_dir(&dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(|e| format!("postgres: {e}"))?;
            watchdog(&dir, child.id());
            let url = format!("postgres://postgres@127.0.0.1:{port}/postgres");
            match wait_ready(&mut child, &url, &dir) {
                Ok(()) => return Ok(Cluster { dir, port, child: Some(child) }),
                Err(e) => {
                    stop(&mut child);
                    last = e;
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        Err(last)
    }

    /// The URL of database `db` on it, as its superuser.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// Its folder: the data in `data/`, the Unix socket, the server's log `log`; owned by the
    /// user the server runs as.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The port it listens on (on 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Creates a new, empty database named after `prefix` (and this process and a counter) and
    /// returns its URL.
    ///
    /// # Errors
    /// The cluster refuses it.
    pub fn new_database(&self, prefix: &str) -> Result<String, String> {
        create_database(&self.url("postgres"), prefix)
    }
}

/// Waits until the server at `url` accepts connections, or `child` ended, or [`START_TIMEOUT`]
/// passed (then the end of the log in `dir` says why).
fn wait_ready(child: &mut Child, url: &str, dir: &Path) -> Result<(), String> {
    let started = Instant::now();
    let target = Target::parse(url).map_err(|e| e.to_string())?;
    loop {
        if target.connect().is_ok() {
            return Ok(());
        }
        let ended = child.try_wait().ok().flatten();
        if ended.is_some() || started.elapsed() > START_TIMEOUT {
            let log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(10).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!("postgres did not start ({ended:?}):\n{}", tail.join("\n")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stops the server (a fast shutdown: SIGINT) and waits for it.
fn stop(child: &mut Child) {
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let _ = child.wait();
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            stop(&mut child);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The folder of `initdb` and `postgres`: that of `initdb` on the `PATH` (its link followed),
/// else the newest `/usr/lib/postgresql/VERSION/bin`.
fn binaries() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("initdb"))
            .find(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok())
    });
    if let Some(dir) = on_path.as_deref().and_then(Path::parent).filter(|d| d.join("postgres").is_file()) {
        return Some(dir.to_path_buf());
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").is_file() && bin.join("postgres").is_file())
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// The user to run PostgreSQL as: `None` (this process's) unless this process is root's.
fn run_as() -> Result<Option<String>, String> {
    let uid = Command::new("id").arg("-u").output().map_err(|e| format!("id -u: {e}"))?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Ok(None);
    }
    let has_postgres = Command::new("id").arg("postgres").output().is_ok_and(|o| o.status.success());
    Ok(Some(if has_postgres { "postgres" } else { "nobody" }.to_string()))
}

/// Gives `dir` to `user`.
fn chown(dir: &Path, user: &str) -> Result<(), String> {
    let status = Command::new("chown").arg(format!("{user}:")).arg(dir).status().map_err(|e| format!("chown: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("chown {user} {} failed", dir.display())) }
}

/// A command running `program` as `user` (`setpriv`, which becomes it: the process is
/// `program`'s, to signal), or as this process's user.
fn as_user(user: &Option<String>, program: &Path) -> Command {
    match user {
        Some(user) => {
            let mut command = Command::new("setpriv");
            command.args([&format!("--reuid={user}"), &format!("--regid={user}"), "--init-groups", "--"]).arg(program);
            command
        }
        None => Command::new(program),
    }
}

/// A port of 127.0.0.1 free at the moment.
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("a free port: {e}"))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Starts a shell, in a process group of its own (Ctrl-C on the tests does not reach it), that
/// waits while this process lives and `dir` is there (a dropped [`Cluster`] removes it), then stops
/// the server `pid` at once (SIGQUIT: an immediate shutdown) if its `postmaster.pid` still names
/// it, and removes `dir`.
fn watchdog(dir: &Path, pid: u32) {
    use std::os::unix::process::CommandExt as _;
    let script = r#"while kill -0 "$1" 2>/dev/null && [ -d "$2" ]; do sleep 1; done
if [ -d "$2" ]; then
  if [ "$(head -n 1 "$2/data/postmaster.pid" 2>/dev/null)" = "$3" ]; then
    kill -QUIT "$3" 2>/dev/null
    while kill -0 "$3" 2>/dev/null; do sleep 0.1; done
  fi
  rm -rf "$2"
fi"#;
    let _ = Command::new("sh")
        .args(["-c", script, "watchdog", &std::process::id().to_string()])
        .arg(dir)
        .arg(pid.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
}

/// Creates a database named after `prefix` on the cluster whose maintenance database is at
/// `admin_url`; returns the new database's URL.
fn create_database(admin_url: &str, prefix: &str) -> Result<String, String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let clean: String =
        prefix.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).take(40).collect();
    let name = format!("{clean}_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let mut client = Target::parse(admin_url).and_then(|t| t.connect()).map_err(|e| e.to_string())?;
    client.batch_execute(&format!("CREATE DATABASE {name}")).map_err(|e| format!("CREATE DATABASE {name}: {e}"))?;
    Ok(with_database(admin_url, &name))
}

/// `url` with its database replaced by `db` (its query kept).
fn with_database(url: &str, db: &str) -> String {
    let (main, query) = url.split_once('?').map_or((url, String::new()), |(m, q)| (m, format!("?{q}")));
    let host_at = main.find("://").map_or(0, |i| i + 3);
    let main = main[host_at..].find('/').map_or(main, |i| &main[..host_at + i]);
    format!("{main}/{db}{query}")
}

/// The base URL of the cluster the tests share, its database part replaced by each test's: the
/// one `TRIBOARD_TEST_PG` names (a running cluster, as a superuser), else a [`Cluster`] started
/// once for this process, stopped by its watchdog when the process ends. `None` if PostgreSQL is
/// not installed.
///
/// # Panics
/// If the cluster cannot start though PostgreSQL is installed, or if it is not installed and the
/// environment has `CI` (CI must not skip the PostgreSQL tests).
pub fn shared() -> Option<&'static str> {
    static SHARED: OnceLock<Option<String>> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            if let Some(url) = std::env::var("TRIBOARD_TEST_PG").ok().filter(|u| !u.is_empty()) {
                return Some(url);
            }
            if binaries().is_none() {
                assert!(
                    std::env::var_os("CI").is_none(),
                    "PostgreSQL is not installed, and CI must run the PostgreSQL tests: install Debian's \
                     postgresql package (initdb in /usr/lib/postgresql/*/bin) or set TRIBOARD_TEST_PG"
                );
                return None;
            }
            let cluster = Cluster::start().unwrap_or_else(|e| panic!("the test cluster: {e}"));
            let url = cluster.url("postgres");
            // Kept running for the whole process: its watchdog stops it.
            std::mem::forget(cluster);
            Some(url)
        })
        .as_deref()
}

/// A fresh database's URL on the [`shared`] cluster, named after `prefix`; `None` if PostgreSQL
/// is not installed (and `CI` is not set).
///
/// # Panics
/// As [`shared`], and if the database cannot be created.
pub fn test_database(prefix: &str) -> Option<String> {
    let base = shared()?;
    let admin = with_database(base, "postgres");
    Some(create_database(&admin, prefix).unwrap_or_else(|e| panic!("a test database: {e}")))
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn a_url_gets_another_database() {
        assert_eq!(with_database("postgres://u@h:5/x?sslmode=disable", "t"), "postgres://u@h:5/t?sslmode=disable");
        assert_eq!(with_database("postgres://u@h:5", "t"), "postgres://u@h:5/t");
    }
}
