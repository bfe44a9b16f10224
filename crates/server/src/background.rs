//! Where the server's work that takes long runs: threads of their own, at a
//! lower priority than the threads that answer requests.
//!
//! The model: three kinds of thread share the cores. The runtime's few threads
//! read requests and write answers (`/healthz`, a position's answer, the chunks
//! of a streamed strategy); they must never wait for a core. The work of one
//! answer that takes milliseconds to seconds (a review, a line, a worksheet, a
//! puzzle, a game value) runs on one of a pool of threads at
//! [`Priority::Answer`], as many as there are cores; the computations of the
//! cache that take seconds to minutes (a solve, a
//! strategy, a variant's puzzles, a saved table's whole check, a sheet's
//! drawing) at [`Priority::Computation`], and the solver's parallel loops in
//! a pool of threads at the same priority ([`init`]). Each such thread raises
//! its nice value when it starts ([`Priority::niceness`]): the kernel's
//! scheduler then gives the runtime's threads the cores first, answers most of
//! the rest, and computations what is left, while every core still works when
//! the others leave it idle. Answers' work takes turns, as many at once as there
//! are cores (and threads in the pool), in the order asked. Computations take
//! a thread each, where a pool of a fixed size would queue a small computation behind a long one; how many
//! run at once is bounded by the memory budget, which each reserves before it
//! starts (`crate::cache`).
//!
//! Work that panics is answered as an internal error.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::ApiError;

/// How urgent a piece of work is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// The work of one answer a client waits for.
    Answer,
    /// A computation of the cache, shared and kept.
    Computation,
}

impl Priority {
    /// The nice value added to the thread that runs work of this priority (each
    /// step gives a thread about four fifths of the share of one a step lower
    /// when both want the same core: 3 gives about half that of the runtime's
    /// threads, 6 about a quarter).
    pub fn niceness(self) -> i32 {
        match self {
            Priority::Answer => 3,
            Priority::Computation => 6,
        }
    }
}

/// Makes the pool the solver's parallel loops run on (rayon's global pool) one
/// of threads at [`Priority::Computation`]. Call it before anything of the
/// process runs a parallel loop: a pool already made stays as it is, at the
/// usual priority.
pub fn init() {
    // Refused only when the pool already exists (see above).
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("chopsticks-solve-{i}"))
        .start_handler(|_| lower_priority(Priority::Computation))
        .build_global();
}

/// The turns of answers' work: as many as cores, taken in the order asked. More
/// threads than cores working at once for answers only make each answer later,
/// and, many at one priority, they crowd out the runtime's threads (sixteen
/// reviews at once delayed `/healthz` by over 100 ms on two cores).
fn answer_turns() -> &'static std::sync::Arc<tokio::sync::Semaphore> {
    static TURNS: std::sync::OnceLock<std::sync::Arc<tokio::sync::Semaphore>> =
        std::sync::OnceLock::new();
    TURNS.get_or_init(|| std::sync::Arc::new(tokio::sync::Semaphore::new(cores())))
}

/// The cores this process may use: the answers' turns and threads.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Lowers the calling thread's priority to `priority`'s (see
/// [`Priority::niceness`]). On Linux the nice value belongs to each thread, so
/// this leaves the request threads as they are; where it cannot be lowered, the
/// thread runs at the usual priority.
fn lower_priority(priority: Priority) {
    #[cfg(target_os = "linux")]
    {
        let tid = this_thread();
        // SAFETY: `getpriority` and `setpriority` take plain integers (which,
        // who, value), touch no memory of ours, and report failure through
        // their return value and errno: errno is this thread's, written and read
        // through the pointer libc gives, valid for the thread's life. Raising a
        // nice value needs no privilege. Tested by
        // `tests::work_runs_at_its_lower_priority`, and for the solver's
        // pool by `serve_limits::computations_run_below_the_requests`.
        unsafe {
            *libc::__errno_location() = 0;
            let now = libc::getpriority(libc::PRIO_PROCESS, tid);
            if *libc::__errno_location() == 0 {
                libc::setpriority(libc::PRIO_PROCESS, tid, (now + priority.niceness()).min(19));
            }
        }
    }
}

/// The calling thread's id, which `getpriority` and `setpriority` take on Linux.
#[cfg(target_os = "linux")]
fn this_thread() -> libc::id_t {
    // SAFETY: `gettid` takes no arguments, touches no memory and cannot fail.
    let tid = unsafe { libc::gettid() };
    tid as libc::id_t
}

/// Runs `work` on a thread of its own at `priority`, and waits for it without
/// holding one of the runtime's threads.
pub async fn run<T: Send + 'static>(
    priority: Priority,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run_admitted(priority, || Ok(()), |()| work()).await
}

/// As [`run`], with `admit` asked once the work's turn has come (for an answer)
/// and before its thread starts: what it gives goes to `work`, and its refusal
/// is the answer. A limit of its own (the evaluations' slots) is thus taken
/// only by work about to run, never held while waiting for a turn.
pub async fn run_admitted<A: Send + 'static, T: Send + 'static>(
    priority: Priority,
    admit: impl FnOnce() -> Result<A, ApiError>,
    work: impl FnOnce(A) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    // Answers wait for one of `cores` turns; computations take none (the
    // budget bounds them).
    let turn = match priority {
        Priority::Answer => Some(
            answer_turns()
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| ApiError::unavailable("the server is stopping"))?,
        ),
        Priority::Computation => None,
    };
    let admitted = admit()?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _turn = turn;
        let result = catch_unwind(AssertUnwindSafe(|| work(admitted))).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(ApiError::internal(format!("the work stopped: {why}")))
        });
        // Nobody waits any more when the server is stopping: nothing to send.
        let _ = tx.send(result);
    });
    match priority {
        Priority::Answer => answer_pool().run(job)?,
        Priority::Computation => spawn_at(Priority::Computation, "chopsticks-work", job)?,
    }
    rx.await
        .unwrap_or_else(|_| Err(ApiError::internal("the work stopped before it ended")))
}

/// A piece of work as the threads take it.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// Runs `job` on a new thread named `name` at `priority`.
fn spawn_at(priority: Priority, name: &str, job: Job) -> Result<(), ApiError> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            lower_priority(priority);
            job();
        })
        .map(drop)
        .map_err(|e| ApiError::unavailable(format!("no thread for the work: {e}")))
}

/// The threads that run answers' work: as many as there are turns
/// ([`answer_turns`]), made once at [`Priority::Answer`] and kept, so an
/// answer does not pay for a thread of its own (about 70 µs to start and join
/// one on the 2-core machine, beside a position's line checks of about half a
/// millisecond). A job is taken only with a turn, so one of these threads is
/// always free for it; jobs queue in the order sent.
struct AnswerPool {
    jobs: std::sync::mpsc::Sender<Job>,
}

impl AnswerPool {
    /// Hands `job` to a thread of the pool, or, where the pool has none (no
    /// thread could be made), to a thread of its own.
    fn run(&self, job: Job) -> Result<(), ApiError> {
        match self.jobs.send(job) {
            Ok(()) => Ok(()),
            Err(std::sync::mpsc::SendError(job)) => {
                spawn_at(Priority::Answer, "chopsticks-answer", job)
            }
        }
    }
}

fn answer_pool() -> &'static AnswerPool {
    static POOL: std::sync::OnceLock<AnswerPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let (jobs, taken) = std::sync::mpsc::channel::<Job>();
        let taken = std::sync::Arc::new(std::sync::Mutex::new(taken));
        for i in 0..cores() {
            let taken = std::sync::Arc::clone(&taken);
            // A thread that cannot be made leaves the others; with none, the
            // receiver is dropped and every job gets a thread of its own.
            let _ = std::thread::Builder::new()
                .name(format!("chopsticks-answer-{i}"))
                .spawn(move || {
                    lower_priority(Priority::Answer);
                    loop {
                        // The lock is held only to take the next job, not to run it.
                        let job = taken.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
        }
        AnswerPool { jobs }
    })
}

/// Drops `value` on a thread of its own at [`Priority::Computation`]: what the
/// cache evicts (a strategy's millions of texts, a table of hundreds of
/// megabytes) takes milliseconds to free, which a runtime thread must not
/// spend. Nothing to free is dropped here.
pub fn discard<T: Send + 'static>(value: Vec<T>) {
    if value.is_empty() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("chopsticks-free".into())
        .spawn(move || {
            lower_priority(Priority::Computation);
            drop(value);
        });
    // Without a thread (none can be made), the value was dropped with the
    // closure: freed here, late but freed.
    drop(spawned);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    fn nice_of_this_thread() -> i32 {
        // SAFETY: as in `lower_priority`: plain integers in, nothing of ours touched.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, this_thread()) }
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn work_runs_at_its_lower_priority() {
        let here = nice_of_this_thread();
        for priority in [Priority::Answer, Priority::Computation] {
            let there = run(priority, || Ok(nice_of_this_thread())).await.unwrap();
            assert_eq!(there, (here + priority.niceness()).min(19));
        }
        // The caller's thread is untouched.
        assert_eq!(nice_of_this_thread(), here);
    }

    #[tokio::test]
    async fn a_panic_is_an_internal_error_and_work_goes_on() {
        let got = run(Priority::Answer, || -> Result<(), ApiError> {
            panic!("on purpose")
        })
        .await;
        let err = got.unwrap_err();
        assert!(format!("{err:?}").contains("on purpose"), "{err:?}");
        assert_eq!(run(Priority::Computation, || Ok(7)).await.unwrap(), 7);
    }
}
