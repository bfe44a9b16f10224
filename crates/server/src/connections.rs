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

/// The longest request body read (a game record posted for review); a longer
/// one is answered 413 before any of it is read.
pub const MAX_BODY: u64 = crate::learn::MAX_REVIEW_BYTES as u64;

/// The most header fields parsed (hyper's own limit here); the router refuses
/// more than [`crate::MAX_HEADERS`] with its reason.
const PARSED_HEADERS: usize = 4 * crate::MAX_HEADERS;

/// An answer written here, not by hyper, and the connection closed after it:
/// a JSON error with the CORS header, as the router's.
fn refusal(status: u16, reason: &str, message: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
         access-control-allow-origin: *\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Checks a whole request head (up to its blank line) as hyper would read it,
/// and more strictly: the length of the body that follows it, or the answer
/// that refuses it. hyper answers what it cannot parse with an empty 400 and no
/// CORS header, and drops an HTTP/2 preface without a word; these answers say
/// why, in JSON.
pub fn check_head(head: &[u8]) -> Result<u64, Vec<u8>> {
    let bad = |message: &str| refusal(400, "Bad Request", message);
    if head.starts_with(b"PRI * HTTP/2.0\r\n") {
        return Err(refusal(
            505,
            "HTTP Version Not Supported",
            "this server speaks HTTP/1.1 (and 1.0), not HTTP/2: connect without HTTP/2, \
             or through a proxy that speaks it",
        ));
    }
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    if line
        .trim_ascii()
        .split(|&b| b == b' ')
        .filter(|w| !w.is_empty())
        .count()
        == 2
    {
        return Err(refusal(
            505,
            "HTTP Version Not Supported",
            "the request line has no HTTP version: HTTP/0.9 is not served (HTTP/1.1 and 1.0 are)",
        ));
    }
    let mut headers = vec![httparse::EMPTY_HEADER; PARSED_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(n)) if n == head.len() => {}
        Ok(httparse::Status::Complete(_)) => {
            return Err(bad(
                "the request head ends before its blank line as HTTP/1.1 reads it",
            ));
        }
        Ok(httparse::Status::Partial) => {
            return Err(bad("the request head is incomplete"));
        }
        Err(httparse::Error::TooManyHeaders) => {
            return Err(refusal(
                431,
                "Request Header Fields Too Large",
                &format!(
                    "the request has more than {PARSED_HEADERS} headers; at most {} are read",
                    crate::MAX_HEADERS
                ),
            ));
        }
        Err(httparse::Error::Version) => {
            return Err(refusal(
                505,
                "HTTP Version Not Supported",
                "the request line does not end in HTTP/1.1 or HTTP/1.0 (HTTP/0.9 and \
                 HTTP/2 are not served)",
            ));
        }
        Err(httparse::Error::Token) => {
            return Err(bad(
                "the request line has a character a method or target may not have",
            ));
        }
        Err(httparse::Error::HeaderName) => {
            return Err(bad(
                "a header's name has a character a name may not have, or a header has no colon",
            ));
        }
        Err(httparse::Error::HeaderValue) => {
            return Err(bad("a header's value has a character a value may not have"));
        }
        Err(e) => {
            return Err(bad(&format!(
                "the request head does not read as HTTP/1.1 ({e})"
            )))
        }
    }
    let mut length: Option<u64> = None;
    let mut transfer = false;
    for h in request.headers.iter() {
        if h.name.eq_ignore_ascii_case("content-length") {
            let text = std::str::from_utf8(h.value).unwrap_or("").trim();
            let value = (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse::<u64>().ok())
                .flatten()
                .ok_or_else(|| {
                    bad(&format!(
                        "Content-Length `{}` is not a number of bytes",
                        crate::escape_controls(&String::from_utf8_lossy(h.value))
                    ))
                })?;
            if length.is_some_and(|l| l != value) {
                return Err(bad(
                    "the request has two Content-Length headers that differ",
                ));
            }
            length = Some(value);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            transfer = true;
        }
    }
    if transfer {
        if length.is_some() {
            return Err(bad(
                "the request has both Content-Length and Transfer-Encoding: it is not read",
            ));
        }
        return Err(refusal(
            411,
            "Length Required",
            "a request body is read with a Content-Length, not a Transfer-Encoding",
        ));
    }
    let length = length.unwrap_or(0);
    if length > MAX_BODY {
        return Err(refusal(
            413,
            "Payload Too Large",
            &format!("the request body is {length} bytes; at most {MAX_BODY} are read"),
        ));
    }
    Ok(length)
}

/// The end of a request head in `bytes` (just past its blank line), searched
/// from `from`: a line feed followed by another, or by a carriage return and a
/// line feed (HTTP/1.1 lines end in CR LF; a bare LF is read as hyper reads it,
/// so that the gate and hyper always agree where a head ends).
fn head_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut k = from;
    while k < bytes.len() {
        if bytes[k] == b'\n' {
            match bytes.get(k + 1..) {
                Some([b'\n', ..]) => return Some(k + 2),
                Some([b'\r', b'\n', ..]) => return Some(k + 3),
                _ => {}
            }
        }
        k += 1;
    }
    None
}

/// The answer to a head longer than [`MAX_HEAD`].
fn too_long() -> Vec<u8> {
    refusal(
        431,
        "Request Header Fields Too Large",
        &format!("the request head is longer than {MAX_HEAD} bytes; it is not read"),
    )
}

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
        if !self.answering() {
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

    /// Whether a request is being answered (until its answer's body is sent).
    fn answering(&self) -> bool {
        self.busy.load(Ordering::Relaxed) > 0
    }

    /// How long until the connection must close (zero: now), or `None` while a
    /// request is being answered.
    fn time_left(&self, limits: &Limits) -> Option<Duration> {
        if self.answering() {
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

/// A stream that records its activity and gates request heads: what the
/// client sends is held back from hyper until a whole head (up to its blank
/// line) has arrived and passed [`check_head`]; then the head and the body its
/// `Content-Length` announces go to hyper, and the next head is gated again.
/// A head that fails, or passes [`MAX_HEAD`], is answered here.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
    /// Bytes read and not yet given to hyper, from `from` on.
    pending: Vec<u8>,
    from: usize,
    /// How many of the pending bytes are checked and go to hyper.
    ready: usize,
    /// Bytes of a body still to pass through unchecked.
    body_left: u64,
    /// How far the pending head has been searched for its blank line.
    searched: usize,
    /// Set once a head is refused: the answer (`unsent` bytes of it left to
    /// write), after which what the client still sends is read and dropped
    /// until it closes (or the header timeout closes the connection), so that
    /// closing does not reset the connection before the client has read the
    /// answer.
    refused: Option<Vec<u8>>,
    unsent: usize,
    /// The write side is shut down after a refusal.
    shut: bool,
}

impl Watched {
    fn new(stream: TcpStream, activity: Arc<Activity>) -> Watched {
        Watched {
            stream,
            activity,
            pending: Vec::new(),
            from: 0,
            ready: 0,
            body_left: 0,
            searched: 0,
            refused: None,
            unsent: 0,
            shut: false,
        }
    }

    /// Refuses the head after the checked bytes: the requests before it are
    /// answered first, then this answer is written ([`AsyncRead::poll_read`]).
    fn refuse(&mut self, answer: Vec<u8>) {
        self.unsent = answer.len();
        self.refused = Some(answer);
        // What follows the checked bytes is never given to hyper.
        self.pending.truncate(self.from + self.ready);
        self.body_left = 0;
    }

    /// Reads and drops what the client sends, until it has nothing more for
    /// now (`Pending`) or its end (given to hyper as the end).
    fn drop_incoming(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let mut sink = [0u8; 8192];
        loop {
            let mut scratch = ReadBuf::new(&mut sink);
            match Pin::new(&mut self.stream).poll_read(cx, &mut scratch) {
                Poll::Ready(Ok(())) if !scratch.filled().is_empty() => self.activity.read(),
                Poll::Ready(result) => return Poll::Ready(result),
                Poll::Pending => return Poll::Pending,
            }
        }
    }

    /// Moves what is pending forward: body bytes pass, a whole head is checked.
    fn advance(&mut self) {
        loop {
            let unchecked = self.pending.len() - self.from - self.ready;
            if unchecked == 0 || self.refused.is_some() {
                return;
            }
            if self.body_left > 0 {
                let n = (unchecked as u64).min(self.body_left);
                self.ready += n as usize;
                self.body_left -= n;
                continue;
            }
            let start = self.from + self.ready;
            let head = &self.pending[start..];
            // Empty lines before a request line are skipped (RFC 9112, 2.2);
            // they count toward the head's limit.
            let blank = head
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            let from = self.searched.max(blank).saturating_sub(2).max(blank);
            match head_end(head, from) {
                Some(end) if end > MAX_HEAD => return self.refuse(too_long()),
                Some(end) => {
                    self.searched = 0;
                    match check_head(&head[blank..end]) {
                        Ok(length) => {
                            self.ready += end;
                            self.body_left = length;
                        }
                        Err(answer) => return self.refuse(answer),
                    }
                }
                None => {
                    self.searched = head.len();
                    if head.len() > MAX_HEAD {
                        return self.refuse(too_long());
                    }
                    return;
                }
            }
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        loop {
            // A refusal waits until hyper has every request before it and has
            // answered them (its answers are never cut by this one). What the
            // client sends meanwhile is dropped; hyper reads again once its
            // answer is written, which comes back here.
            if this.refused.is_some() && this.ready == 0 && this.activity.answering() {
                return this.drop_incoming(cx);
            }
            if let Some(answer) = this.refused.as_ref().filter(|_| this.ready == 0) {
                // The answer first (hyper has not answered: it was given no head).
                while this.unsent > 0 {
                    let from = answer.len() - this.unsent;
                    match Pin::new(&mut this.stream).poll_write(cx, &answer[from..]) {
                        Poll::Ready(Ok(0)) => return Poll::Ready(Ok(())),
                        Poll::Ready(Ok(n)) => this.unsent -= n,
                        Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                        Poll::Pending => return Poll::Pending,
                    }
                }
                // Then the end of what the server sends, so that a client
                // reading to the end has all of it...
                if !this.shut {
                    match Pin::new(&mut this.stream).poll_shutdown(cx) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(_) => this.shut = true,
                    }
                }
                // ...and drop what the client still sends; its end is hyper's end.
                return this.drop_incoming(cx);
            }
            if this.ready > 0 {
                let n = this.ready.min(buf.remaining());
                buf.put_slice(&this.pending[this.from..this.from + n]);
                this.from += n;
                this.ready -= n;
                if this.from == this.pending.len() {
                    this.pending.clear();
                    this.from = 0;
                } else if this.from > 64 * 1024 {
                    this.pending.drain(..this.from);
                    this.from = 0;
                }
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 16 * 1024];
            let mut scratch = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.stream).poll_read(cx, &mut scratch) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) if scratch.filled().is_empty() => {
                    // The client's end. A head cut short is answered, if the
                    // client still reads; a bare end is hyper's end.
                    let rest = &this.pending[this.from..];
                    if rest.iter().any(|&b| b != b'\r' && b != b'\n') && this.body_left == 0 {
                        this.refuse(refusal(
                            400,
                            "Bad Request",
                            "the connection ended before the request head's blank line",
                        ));
                        continue;
                    }
                    return Poll::Ready(Ok(()));
                }
                Poll::Ready(Ok(())) => {
                    this.activity.read();
                    this.pending.extend_from_slice(scratch.filled());
                    this.advance();
                }
            }
        }
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

/// A request being answered, until dropped (with its answer's body).
struct Answering(Arc<Activity>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.answered();
    }
}

/// An answer's body that keeps its request counted as being answered until
/// the body is sent or dropped.
struct Tracked {
    body: Body,
    _answering: Answering,
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A request with its body read whole within `clock` (the header timeout,
/// counted from the end of its head): a body that is slow or never sent is
/// answered 408 and the connection closed, the client's fault answered as
/// such. [`check_head`] has bounded its length already.
async fn read_body(
    request: Request<hyper::body::Incoming>,
    clock: Duration,
) -> Result<Request<Body>, axum::response::Response> {
    use axum::response::IntoResponse;
    use http_body_util::BodyExt;
    let announced = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
        .unwrap_or(0);
    if announced == 0 && http_body::Body::is_end_stream(request.body()) {
        return Ok(request.map(Body::new));
    }
    let (parts, body) = request.into_parts();
    let close = |status, message: String| {
        let mut response = crate::ApiError::new_with(status, message).into_response();
        let headers = response.headers_mut();
        headers.insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        headers.insert(
            axum::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
            axum::http::HeaderValue::from_static("*"),
        );
        response
    };
    let limited = http_body_util::Limited::new(body, MAX_BODY as usize);
    match tokio::time::timeout(clock, limited.collect()).await {
        Ok(Ok(collected)) => Ok(Request::from_parts(parts, Body::from(collected.to_bytes()))),
        Ok(Err(e)) => Err(close(
            axum::http::StatusCode::BAD_REQUEST,
            format!("the request body could not be read: {e}"),
        )),
        Err(_) => Err(close(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body ({announced} bytes announced) did not arrive within {} s",
                clock.as_secs_f64()
            ),
        )),
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
                    // Answered once the answer's body is sent or dropped: a
                    // request whose answer is streaming is not idle, and no
                    // head after it is timed until it ends.
                    let answering = Answering(Arc::clone(&activity));
                    let response = match read_body(request, limits.header_timeout).await {
                        Ok(request) => app.oneshot(request).await.unwrap_or_else(|e| match e {}),
                        Err(refused) => refused,
                    };
                    Ok::<_, Infallible>(response.map(|body| {
                        Body::new(Tracked {
                            body,
                            _answering: answering,
                        })
                    }))
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
        let long = refusal(431, "Request Header Fields Too Large", "too long");
        for answer in [TOO_MANY, &long[..]] {
            let text = std::str::from_utf8(answer).unwrap();
            let (head, body) = text.split_once("\r\n\r\n").unwrap();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(length, body.len(), "{head}");
            assert!(head.contains("access-control-allow-origin: *"), "{head}");
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(json["error"].is_string());
        }
    }

    /// What hyper would answer with an empty 400 (or not at all) is refused
    /// here with a reason; good heads pass with their body's length.
    #[test]
    fn heads_are_checked_as_http_says() {
        let status = |head: &[u8]| match check_head(head) {
            Ok(length) => format!("ok {length}"),
            Err(answer) => String::from_utf8(answer[9..12].to_vec()).unwrap(),
        };
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "ok 0");
        assert_eq!(status(b"GET / HTTP/1.1\nHost: x\n\n"), "ok 0");
        // Where heads end: after a blank line, with or without its CR.
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\nrest", 0), Some(18));
        assert_eq!(head_end(b"GET / HTTP/1.1\n\nrest", 0), Some(16));
        assert_eq!(head_end(b"GET / HTTP/1.1\n\r\nrest", 0), Some(17));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n", 0), None);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n"),
            "ok 12"
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 12\r\ncontent-length: 12\r\n\r\n"),
            "ok 12"
        );
        assert_eq!(status(b"GET /\r\n\r\n"), "505");
        assert_eq!(status(b"PRI * HTTP/2.0\r\n\r\n"), "505");
        assert_eq!(status(b"G\0T / HTTP/1.1\r\n\r\n"), "400");
        assert_eq!(status(b"GET / HTTP/1.1\r\nNoColon\r\n\r\n"), "400");
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            "400"
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 100000000000000000000\r\n\r\n"),
            "400"
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
            "400"
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            "411"
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"),
            "400"
        );
        assert_eq!(
            status(
                format!(
                    "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
                    MAX_BODY + 1
                )
                .as_bytes()
            ),
            "413"
        );
    }
}
