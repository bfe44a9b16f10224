//! `cfg(smt)` when the SMT solvers the proofs hand their formulas to (z3 and
//! cvc5) are installed (`chopsticks-probe`): the proofs in `tests/` are
//! reported ignored without them, never passed.

fn main() {
    let mut probe = chopsticks_probe::Probe::new();
    probe.programs("smt", &["z3", "cvc5"]);
    for line in probe.lines() {
        println!("{line}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
