//! The `chopsticks` binary: the command line of [`chopsticks_toolkit`], run on
//! this process's arguments.

fn main() {
    chopsticks_toolkit::run(std::env::args_os())
}
