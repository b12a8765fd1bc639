//! Running child processes with a timeout while echoing and capturing their output.

use anyhow::{Context, Result, bail};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a finished (or killed) process left behind.
pub struct Captured {
    /// Exit status; `None` when the process was killed after the timeout.
    pub status: Option<ExitStatus>,
    /// Standard output and standard error, interleaved line by line in arrival order.
    pub text: String,
}

impl Captured {
    /// True when the process exited by itself with status 0.
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }
}

/// Runs `cmd`, echoing each output line (prefixed with `echo_prefix` unless `quiet`), and kills
/// it (and its process group) after `timeout`.
pub fn run_captured(
    cmd: &mut Command,
    timeout: Duration,
    echo_prefix: &str,
    quiet: bool,
) -> Result<Captured> {
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("could not start {:?}", cmd.get_program()))?;
    let (tx, rx) = mpsc::channel::<String>();
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        readers.push(spawn_reader(out, tx.clone()));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(spawn_reader(err, tx.clone()));
    }
    drop(tx);
    let start = Instant::now();
    let mut text = String::new();
    let mut status = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(line) => {
                if !quiet {
                    println!("{echo_prefix}{line}");
                }
                text.push_str(&line);
                text.push('\n');
                continue;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                status = Some(child.wait()?);
                break;
            }
        }
        if let Some(s) = child.try_wait()? {
            // Drain what is left.
            for line in rx.iter() {
                if !quiet {
                    println!("{echo_prefix}{line}");
                }
                text.push_str(&line);
                text.push('\n');
            }
            status = Some(s);
            break;
        }
        if start.elapsed() > timeout {
            kill_group(&mut child);
            text.push_str(&format!(
                "xtask: killed after {} s (timeout)\n",
                timeout.as_secs()
            ));
            break;
        }
    }
    // After a timeout a surviving grandchild (e.g. Godot under xvfb-run, outside the killed
    // process group) may hold the pipes open forever: do not wait for the readers then.
    if status.is_some() {
        for r in readers {
            let _ = r.join();
        }
    }
    Ok(Captured { status, text })
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .arg("-KILL")
            .arg(format!("-{}", child.id()))
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn spawn_reader<R: Read + Send + 'static>(
    stream: R,
    tx: mpsc::Sender<String>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let reader = BufReader::new(stream);
        for line in reader.split(b'\n') {
            let Ok(line) = line else { break };
            let line = String::from_utf8_lossy(&line)
                .trim_end_matches('\r')
                .to_string();
            if tx.send(line).is_err() {
                break;
            }
        }
    })
}

/// Runs a command inheriting stdio and fails with `what` if it does not succeed.
pub fn run(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd
        .status()
        .with_context(|| format!("could not start {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}
