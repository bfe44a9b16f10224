//! Connections: how the server accepts, times and closes them, so that slow or
//! idle clients cannot starve the others.
//!
//! The model: each accepted connection takes a permit of a semaphore of
//! [`Limits::max_connections`] (kept below the process's descriptor limit, so
//! `accept` itself never fails for lack of descriptors). Beyond it, a connection is
//! answered at once with a `503` JSON error and closed. A connection is served by
//! hyper's HTTP/1.1 machinery with two clocks:
//!
//! - the **header-read timeout** ([`Limits::header_timeout`]): a request's head
//!   (request line and headers) must arrive whole within it, counted from when the
//!   server starts waiting for it. Partial headers sent slowly (slowloris) close the
//!   connection when it runs out; so does a connection that sends nothing.
//! - the **idle timeout** ([`Limits::idle_timeout`]): a connection on which nothing
//!   is read or written for that long, and no request is being answered, is closed
//!   (an idle keep-alive connection after its last answer). A request being
//!   answered (a solve can take up to the request time limit) never counts as idle.
//!
//! A head is waited for from the connection's opening, and then from the first
//! byte after each answer; a keep-alive connection that sends nothing more is
//! under the idle timeout alone. A task per connection watches both clocks (from
//! the byte counts of its stream and the requests of its service) and drops the
//! connection when one runs out.
//!
//! Like nginx's `client_header_timeout` and `keepalive_timeout`, both bound how long
//! a client may hold a connection without using it; the defaults are in
//! [`Limits::default`].

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// How long and how many connections are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A request head must arrive whole within this.
    pub header_timeout: Duration,
    /// A connection with no traffic and no request being answered for this long
    /// is closed.
    pub idle_timeout: Duration,
    /// Connections served at once; more are answered 503 and closed.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 10 s to send a request head, 60 s idle, 1,000 connections.
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1000,
        }
    }
}

/// The answer to a connection beyond [`Limits::max_connections`].
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
access-control-allow-origin: *\r\nconnection: close\r\ncontent-length: 73\r\n\r\n\
{\"error\": \"this server has too many connections open; try again shortly\"}";

/// The longest request head read (request line and headers, up to the blank line
/// that ends them), well within hyper's own buffer: a longer one is answered
/// with a `431` here, in JSON, where hyper would answer an empty one. Heads
/// within it but beyond [`crate::MAX_URI`] or [`crate::MAX_HEADERS`] are refused
/// by the router with their own reason.
pub const MAX_HEAD: usize = 64 * 1024;

/// The answer to a head longer than [`MAX_HEAD`].
const TOO_LONG: &[u8] =
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n\
access-control-allow-origin: *\r\nconnection: close\r\ncontent-length: 72\r\n\r\n\
{\"error\": \"the request head is longer than 65536 bytes; it is not read\"}";

/// When a connection last moved a byte, since when it has been waiting for a
/// request head to complete, and how many of its requests are being answered.
struct Activity {
    start: Instant,
    /// Milliseconds since `start` at the last read or write.
    last: AtomicU64,
    /// One more than the milliseconds since `start` at which the head being
    /// waited for began (its first byte, or the connection's opening); 0 when no
    /// head is pending.
    head_since: AtomicU64,
    busy: AtomicUsize,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            start: Instant::now(),
            last: AtomicU64::new(0),
            // A new connection waits for its first head.
            head_since: AtomicU64::new(1),
            busy: AtomicUsize::new(0),
        }
    }

    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn touch(&self) {
        self.last.store(self.now(), Ordering::Relaxed);
    }

    /// Bytes arrived: a head starts unless a request is being answered.
    fn read(&self) {
        self.touch();
        if self.busy.load(Ordering::Relaxed) == 0 {
            let _ = self.head_since.compare_exchange(
                0,
                self.now() + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    /// A head is complete: its request is being answered.
    fn request(&self) {
        self.busy.fetch_add(1, Ordering::Relaxed);
        self.head_since.store(0, Ordering::Relaxed);
    }

    fn answered(&self) {
        self.busy.fetch_sub(1, Ordering::Relaxed);
        self.touch();
    }

    /// How long until the connection must close (zero: now), or `None` while a
    /// request is being answered.
    fn time_left(&self, limits: &Limits) -> Option<Duration> {
        if self.busy.load(Ordering::Relaxed) > 0 {
            return None;
        }
        let now = self.now();
        let idle = now.saturating_sub(self.last.load(Ordering::Relaxed));
        let mut left = (limits.idle_timeout.as_millis() as u64).saturating_sub(idle);
        let head = self.head_since.load(Ordering::Relaxed);
        if head > 0 {
            let waited = now.saturating_sub(head - 1);
            left = left.min((limits.header_timeout.as_millis() as u64).saturating_sub(waited));
        }
        Some(Duration::from_millis(left))
    }
}

/// A stream that records its activity, and measures request heads: the bytes
/// read since the end of the last head (a blank line, `\r\n\r\n`). The API takes
/// GET requests only, without bodies, so everything read belongs to heads.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
    /// Bytes of the head being read so far.
    head: usize,
    /// The last bytes read, for a blank line split between two reads.
    tail: [u8; 3],
    /// Set once a head passed [`MAX_HEAD`]: the answer is written (`unsent`
    /// holds how much of it is left) and what the client still sends is read and
    /// dropped until it closes (or the header timeout closes the connection), so
    /// that closing does not reset the connection before the client has read
    /// the answer.
    refused: bool,
    unsent: usize,
}

impl Watched {
    fn new(stream: TcpStream, activity: Arc<Activity>) -> Watched {
        Watched {
            stream,
            activity,
            head: 0,
            tail: [0; 3],
            refused: false,
            unsent: 0,
        }
    }
}

/// Counts `bytes` into the head being read (`head` bytes so far, `tail` the last
/// three bytes before these); whether it passed [`MAX_HEAD`].
fn measure(head: &mut usize, tail: &mut [u8; 3], bytes: &[u8]) -> bool {
    let mut window = *tail;
    let mut too_long = false;
    for &b in bytes {
        *head += 1;
        // A head that ends within the read may have passed the limit first.
        too_long |= *head > MAX_HEAD;
        if window == *b"\r\n\r" && b == b'\n' {
            *head = 0;
        }
        window = [window[1], window[2], b];
    }
    *tail = window;
    too_long
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.refused {
            // The answer first (hyper has not answered: its head is not complete).
            while self.unsent > 0 {
                let from = TOO_LONG.len() - self.unsent;
                match Pin::new(&mut self.stream).poll_write(cx, &TOO_LONG[from..]) {
                    Poll::Ready(Ok(0)) => return Poll::Ready(Ok(())),
                    Poll::Ready(Ok(n)) => self.unsent -= n,
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => return Poll::Pending,
                }
            }
            // Then drop what the client still sends; its end is hyper's end.
            let mut sink = [0u8; 8192];
            loop {
                let mut scratch = ReadBuf::new(&mut sink);
                match Pin::new(&mut self.stream).poll_read(cx, &mut scratch) {
                    Poll::Ready(Ok(())) if !scratch.filled().is_empty() => continue,
                    Poll::Ready(result) => return Poll::Ready(result),
                    Poll::Pending => return Poll::Pending,
                }
            }
        }
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read();
            let this = &mut *self;
            if measure(&mut this.head, &mut this.tail, &buf.filled()[before..]) {
                // Answered here; hyper is given none of these bytes.
                buf.set_filled(before);
                self.refused = true;
                self.unsent = TOO_LONG.len();
                return self.poll_read(cx, buf);
            }
        }
        result
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// How long requests in progress are given to finish once the server stops:
/// with what the runtime takes to stop, the server is gone within a second
/// whatever it is computing (a computation of the cache is not waited for).
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);

/// Serves `app` on `listener` within `limits` until `shutdown` completes; then
/// stops accepting, gives the requests in progress [`SHUTDOWN_GRACE`] to
/// finish, and returns.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of descriptors or a connection reset before it was
                // accepted: wait a moment rather than spin, and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            // Answer, then read what the client sent until it closes (for at most a
            // second), so that closing does not reset the connection before the
            // client has read the answer.
            tokio::spawn(async move {
                let mut stream = stream;
                let _ = tokio::time::timeout(Duration::from_secs(1), async {
                    stream.write_all(TOO_MANY).await?;
                    stream.shutdown().await?;
                    let mut sink = [0u8; 1024];
                    while stream.read(&mut sink).await? > 0 {}
                    Ok::<(), std::io::Error>(())
                })
                .await;
            });
            continue;
        };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::new());
        let io = TokioIo::new(Watched::new(stream, Arc::clone(&activity)));
        let service = {
            let app = app.clone();
            let activity = Arc::clone(&activity);
            hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                let app = app.clone();
                let activity = Arc::clone(&activity);
                activity.request();
                async move {
                    let response = app.oneshot(request.map(Body::new)).await;
                    activity.answered();
                    Ok::<_, Infallible>(response.unwrap_or_else(|e| match e {}))
                }
            })
        };
        // hyper refuses heads beyond its own limits with empty bodies; with room to
        // spare here, the router refuses them first with a JSON reason
        // (`crate::MAX_URI`, `crate::MAX_HEADERS`), and `Watched` heads longer than
        // `MAX_HEAD` (within hyper's buffer, about 400 KiB). hyper's own head timer, which
        // also runs while a keep-alive connection waits, is only a backstop: the
        // watch below applies both limits.
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.idle_timeout.max(limits.header_timeout))
            .max_headers(4 * crate::MAX_HEADERS)
            .serve_connection(io, service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _permit = permit;
            tokio::pin!(connection);
            loop {
                let left = activity.time_left(&limits);
                if left == Some(Duration::ZERO) {
                    break; // dropping the connection closes it
                }
                let wait = left
                    .unwrap_or(limits.idle_timeout)
                    .max(Duration::from_millis(20));
                tokio::select! {
                    _ = &mut connection => break,
                    _ = tokio::time::sleep(wait) => {}
                }
            }
        });
    }
    drop(listener);
    // Requests in progress finish within the grace; idle connections close.
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(SHUTDOWN_GRACE) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers written here by hand announce their bodies' true lengths.
    #[test]
    fn fixed_answers_announce_their_lengths() {
        for answer in [TOO_MANY, TOO_LONG] {
            let text = std::str::from_utf8(answer).unwrap();
            let (head, body) = text.split_once("\r\n\r\n").unwrap();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(length, body.len(), "{head}");
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(json["error"].is_string());
        }
        assert!(std::str::from_utf8(TOO_LONG)
            .unwrap()
            .contains(&MAX_HEAD.to_string()));
    }
}
