//! A load generator for the server, on loopback: many keep-alive connections, each
//! sending `GET` requests one after another over plain HTTP/1.1, until a number of
//! requests is reached or a time limit passes (it always stops by itself).
//!
//! It measures what a client sees: every request's latency from the first byte
//! written to the last byte of the body read, and the throughput over the whole run.
//! A request succeeds when the answer is `200` with a body of the announced length;
//! anything else is counted as a failure, and a connection that fails is not reused.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What a load run asks for.
#[derive(Clone, Debug)]
pub struct LoadPlan {
    /// `host:port` of the server.
    pub address: String,
    /// Paths requested in turn (`/api/v1/chopsticks/standard/positions/?p=1111`, …).
    pub paths: Vec<String>,
    /// Connections open at once, each with one request in flight.
    pub connections: usize,
    /// Requests in all.
    pub requests: u64,
    /// The run stops after this long even if requests remain.
    pub time_limit: Duration,
}

/// What a load run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadReport {
    pub succeeded: u64,
    pub failed: u64,
    pub seconds: f64,
    /// Latency percentiles in microseconds: 50, 90, 99, 99.9 and the maximum.
    pub p50_us: u64,
    pub p90_us: u64,
    pub p99_us: u64,
    pub p999_us: u64,
    pub max_us: u64,
    /// Whether the time limit stopped the run.
    pub timed_out: bool,
}

impl LoadReport {
    /// Successful requests per second.
    pub fn throughput(&self) -> f64 {
        self.succeeded as f64 / self.seconds.max(1e-9)
    }
}

/// Sends one request and reads its answer; `Ok(true)` for a `200`.
async fn exchange(
    stream: &mut TcpStream,
    request: &[u8],
    buf: &mut Vec<u8>,
    chunk: &mut [u8],
) -> std::io::Result<bool> {
    stream.write_all(request).await?;
    buf.clear();
    // Headers.
    let header_end = loop {
        let n = stream.read(chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if buf.len() > 64 * 1024 {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
    };
    let head =
        std::str::from_utf8(&buf[..header_end]).map_err(|_| std::io::ErrorKind::InvalidData)?;
    let ok = head.starts_with("HTTP/1.1 200");
    let length = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())
                .flatten()
        })
        .ok_or(std::io::ErrorKind::InvalidData)?;
    let mut have = buf.len() - header_end;
    while have < length {
        let n = stream.read(chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        have += n;
    }
    if have != length {
        // Bytes beyond the body: the server answered more than was asked.
        return Err(std::io::ErrorKind::InvalidData.into());
    }
    Ok(ok)
}

/// Runs the plan (see the module documentation).
pub async fn run(plan: LoadPlan) -> LoadReport {
    let next = Arc::new(AtomicU64::new(0));
    let plan = Arc::new(plan);
    let deadline = Instant::now() + plan.time_limit;
    // Every connection is opened first: the run measures requests, not the
    // kernel's handling of a thousand simultaneous connects.
    let connecting: Vec<_> = (0..plan.connections.max(1))
        .map(|_| {
            let address = plan.address.clone();
            tokio::spawn(async move { TcpStream::connect(address).await.ok() })
        })
        .collect();
    let mut streams = Vec::new();
    for c in connecting {
        streams.push(c.await.ok().flatten());
    }
    let start = Instant::now();
    let mut tasks = Vec::new();
    for stream in streams {
        let next = Arc::clone(&next);
        let plan = Arc::clone(&plan);
        tasks.push(tokio::spawn(async move {
            let mut latencies: Vec<u32> = Vec::new();
            let mut failed = 0u64;
            let mut buf = Vec::with_capacity(16 * 1024);
            // One read buffer per connection, not one zeroed per request: the
            // client shares the machine with the server it measures.
            let mut chunk = vec![0u8; 16 * 1024];
            let mut stream = stream;
            if let Some(s) = &stream {
                let _ = s.set_nodelay(true);
            }
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= plan.requests || Instant::now() >= deadline {
                    break;
                }
                let path = &plan.paths[(k % plan.paths.len() as u64) as usize];
                let request = format!(
                    "GET {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: chopsticks-bench\r\n\r\n",
                    plan.address
                );
                let clock = Instant::now();
                if stream.is_none() {
                    stream = TcpStream::connect(&plan.address).await.ok();
                    if let Some(s) = &stream {
                        let _ = s.set_nodelay(true);
                    }
                }
                let Some(s) = stream.as_mut() else {
                    failed += 1;
                    continue;
                };
                let remaining = deadline.saturating_duration_since(Instant::now());
                match tokio::time::timeout(
                    remaining,
                    exchange(s, request.as_bytes(), &mut buf, &mut chunk),
                )
                .await
                {
                    Ok(Ok(true)) => {
                        let us = clock.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                        latencies.push(us);
                    }
                    Ok(Ok(false)) => failed += 1,
                    _ => {
                        failed += 1;
                        stream = None;
                    }
                }
            }
            (latencies, failed)
        }));
    }
    let mut latencies = Vec::new();
    let mut failed = 0;
    for t in tasks {
        if let Ok((l, f)) = t.await {
            latencies.extend(l);
            failed += f;
        } else {
            failed += 1;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let at = |q: f64| -> u64 {
        if latencies.is_empty() {
            return 0;
        }
        let i = ((latencies.len() as f64 * q).ceil() as usize).clamp(1, latencies.len()) - 1;
        u64::from(latencies[i])
    };
    LoadReport {
        succeeded: latencies.len() as u64,
        failed,
        seconds,
        p50_us: at(0.50),
        p90_us: at(0.90),
        p99_us: at(0.99),
        p999_us: at(0.999),
        max_us: latencies.last().copied().map_or(0, u64::from),
        timed_out: Instant::now() >= deadline,
    }
}
