//! `chopsticks verify`: the paper's theorems checked by exhaustion within bounds
//! ([`chopsticks_theorems`]); exits with status 1 when a statement has a
//! counterexample.

use std::time::Instant;

use anyhow::{bail, Result};
use chopsticks_atlas::Atlas;
use chopsticks_theorems::{verify, Bounds, Statement};
use chopsticks_values::OneHandSweep;
use clap::Args;

use crate::memory::ensure_fits;
use crate::progress;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Check only these statements (comma-separated): theorem-3, theorem-4, lemma-1,
    /// proposition-1 … proposition-4, conjecture-pm-j, three-fingers, four-fingers,
    /// five-fingers, general-n, table-1-closed-forms, conjecture-5.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    only: Vec<String>,
    /// Theorem 3 and the conjecture on ±J: every (1|1)_n with n ≤ N.
    #[arg(long, default_value_t = Bounds::default().max_n, value_name = "N")]
    max_n: u32,
    /// Theorem 4 and Lemma 1: every finger count n ≤ this …
    #[arg(long, default_value_t = Bounds::default().atlas_n, value_name = "N")]
    atlas_n: u32,
    /// … and every position with at most this many hands a side.
    #[arg(long, default_value_t = Bounds::default().max_hands, value_name = "H")]
    max_hands: usize,
    /// Propositions 1–3: every position at n = 2 with at most this many hands a side.
    #[arg(long, default_value_t = Bounds::default().hands_n2, value_name = "H")]
    hands_n2: usize,
    /// Proposition 4 and the closed form for n = 3: at most this many hands a side.
    #[arg(long, default_value_t = Bounds::default().hands_n3, value_name = "H")]
    hands_n3: usize,
    /// The closed form for n = 4: every pair of equal-sized sides with at most this
    /// many hands (the level atlas: 30 hands take about 3 s, 60 about 4 minutes).
    #[arg(long, default_value_t = Bounds::default().hands_n4, value_name = "H")]
    hands_n4: usize,
    /// The rules for n = 5: every pair of equal-sized sides with at most this many
    /// hands (the level atlas: 16 hands take about 1.5 s, 35 about 8 minutes and 5.5 GB).
    #[arg(long, default_value_t = Bounds::default().hands_n5, value_name = "H")]
    hands_n5: usize,
    /// The theorems for every n: each finger count 2 ≤ n ≤ N …
    #[arg(long, default_value_t = Bounds::default().general_n, value_name = "N")]
    general_n: u32,
    /// … and every pair of equal-sized sides with at most this many hands (the
    /// level atlas of each n).
    #[arg(long, default_value_t = Bounds::default().general_hands, value_name = "H")]
    general_hands: usize,
    /// Table 1's closed forms (Propositions 0–4 of docs/TABLE1.md): every cell
    /// (i|j)_n with n ≤ N.
    #[arg(long, default_value_t = Bounds::default().table1_n, value_name = "N")]
    table1_n: u32,
    /// Conjecture 5 of docs/TABLE1.md: (k|k+1)_n for every k ≤ K and n ≤ 250k.
    #[arg(long, default_value_t = Bounds::default().adjacent_k, value_name = "K")]
    adjacent_k: u32,
    /// Print JSON: a list of {"statement", "holds", "checked", "positions",
    /// "counterexamples", …}.
    #[arg(long)]
    json: bool,
    /// Check nothing: print the SMT-LIB query whose answer `unsat` proves the
    /// closed form for n = N (3, 4 or 5; docs/FIVE-FINGERS.md, "Proof"), to run
    /// with an SMT solver (`z3 FILE`, `cvc5 FILE`).
    #[arg(long, value_name = "N", conflicts_with_all = ["json", "only"])]
    smt_query: Option<u32>,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &VerifyArgs) -> Result<()> {
    if let Some(n) = args.smt_query {
        let Some(query) = chopsticks_atlas::smt::closed_form_query(n) else {
            let proved: Vec<String> = chopsticks_atlas::smt::PROVED
                .iter()
                .map(u32::to_string)
                .collect();
            bail!(
                "--smt-query {n}: the closed forms proved by a solver are those for n = {}",
                proved.join(", ")
            );
        };
        print!("{query}");
        return Ok(());
    }
    let statements: Vec<Statement> = if args.only.is_empty() {
        Statement::ALL.to_vec()
    } else {
        let mut list = Vec::new();
        for name in &args.only {
            let Some(s) = Statement::from_name(name.trim()) else {
                let names: Vec<&str> = Statement::ALL.iter().map(|s| s.name()).collect();
                bail!(
                    "unknown statement `{}`; the statements are {}",
                    chopsticks_rules::quoted(name),
                    names.join(", ")
                );
            };
            if !list.contains(&s) {
                list.push(s);
            }
        }
        list
    };
    let bounds = Bounds {
        max_n: args.max_n,
        atlas_n: args.atlas_n,
        max_hands: args.max_hands,
        hands_n2: args.hands_n2,
        hands_n3: args.hands_n3,
        hands_n4: args.hands_n4,
        hands_n5: args.hands_n5,
        general_n: args.general_n,
        general_hands: args.general_hands,
        table1_n: args.table1_n,
        adjacent_k: args.adjacent_k,
    };
    // Refuse what cannot fit before any work.
    let uses = |s: &[Statement]| statements.iter().any(|x| s.contains(x));
    if uses(&[Statement::Theorem3, Statement::ConjecturePlusMinusJ]) {
        if args.max_n == 0 || args.max_n > OneHandSweep::MAX_N {
            bail!("--max-n must be between 1 and {}", OneHandSweep::MAX_N);
        }
        ensure_fits(
            OneHandSweep::bytes(args.max_n),
            &format!("the values of (a|b)_n for a + b ≤ {}", args.max_n),
        )?;
    }
    // The atlases the statements use, all kept until the end: each within the
    // solver's bounds (the error names the flag), and together within memory.
    let mut atlases: Vec<(u32, usize)> = Vec::new();
    let mut total_bytes = 0u64;
    let mut need = |flag: &str, n: u32, h: usize| -> Result<()> {
        if h == 0 {
            bail!("{flag} must be at least 1");
        }
        if atlases.contains(&(n, h)) {
            return Ok(());
        }
        let size = Atlas::check(n, h).map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
        atlases.push((n, h));
        total_bytes = total_bytes.saturating_add(size.bytes);
        Ok(())
    };
    if uses(&[Statement::Theorem4, Statement::Lemma1]) {
        if args.atlas_n == 0 || args.atlas_n > chopsticks_atlas::MAX_N {
            bail!(
                "--atlas-n must be between 1 and {}",
                chopsticks_atlas::MAX_N
            );
        }
        for n in 1..=args.atlas_n {
            need("--atlas-n and --max-hands", n, args.max_hands)?;
        }
    }
    if uses(&[
        Statement::Proposition1,
        Statement::Proposition2,
        Statement::Proposition3,
    ]) {
        need("--hands-n2", 2, args.hands_n2)?;
    }
    if uses(&[Statement::Proposition4, Statement::ThreeFingers]) {
        need("--hands-n3", 3, args.hands_n3)?;
    }
    if uses(&[Statement::FourFingers]) {
        if args.hands_n4 == 0 {
            bail!("--hands-n4 must be at least 1");
        }
        let size = chopsticks_atlas::LevelAtlas::check(4, args.hands_n4)
            .map_err(|e| anyhow::anyhow!("--hands-n4: {e}"))?;
        total_bytes = total_bytes.saturating_add(size.bytes.min(u64::MAX as u128) as u64);
    }
    if uses(&[Statement::FiveFingers]) {
        if args.hands_n5 == 0 {
            bail!("--hands-n5 must be at least 1");
        }
        let size = chopsticks_atlas::LevelAtlas::check(5, args.hands_n5)
            .map_err(|e| anyhow::anyhow!("--hands-n5: {e}"))?;
        total_bytes = total_bytes.saturating_add(size.bytes.min(u64::MAX as u128) as u64);
    }
    if uses(&[Statement::Table1ClosedForms])
        && !(1..=chopsticks_theorems::MAX_TABLE1_N).contains(&args.table1_n)
    {
        bail!(
            "--table1-n must be between 1 and {}",
            chopsticks_theorems::MAX_TABLE1_N
        );
    }
    if uses(&[Statement::Conjecture5])
        && !(1..=chopsticks_theorems::MAX_ADJACENT_K).contains(&args.adjacent_k)
    {
        bail!(
            "--adjacent-k must be between 1 and {}",
            chopsticks_theorems::MAX_ADJACENT_K
        );
    }
    if uses(&[Statement::GeneralN]) {
        if args.general_n < 2 {
            bail!("--general-n must be at least 2");
        }
        if args.general_hands == 0 {
            bail!("--general-hands must be at least 1");
        }
        // One level atlas at a time: the largest counts.
        let mut largest = 0u64;
        for n in 2..=args.general_n {
            let size = chopsticks_atlas::LevelAtlas::check(n, args.general_hands)
                .map_err(|e| anyhow::anyhow!("--general-n and --general-hands: {e}"))?;
            largest = largest.max(size.bytes.min(u64::MAX as u128) as u64);
        }
        total_bytes = total_bytes.saturating_add(largest);
    }
    if !atlases.is_empty()
        || uses(&[
            Statement::FourFingers,
            Statement::FiveFingers,
            Statement::GeneralN,
        ])
    {
        ensure_fits(
            total_bytes,
            &format!(
                "{} outcome atlas{} kept together",
                atlases.len(),
                if atlases.len() == 1 { "" } else { "es" }
            ),
        )?;
    }

    let clock = Instant::now();
    let report = |s: Statement| progress::announce(&format!("checking {}", s.name()), args.quiet);
    let checks = verify(&statements, bounds, &report)?;
    let failed = checks.iter().filter(|c| !c.holds).count();
    if args.json {
        super::print_json(&serde_json::to_value(&checks)?);
    } else {
        for c in &checks {
            println!(
                "{} {}",
                if c.holds { "holds:" } else { "FAILS:" },
                c.statement
            );
            println!(
                "    checked: {} — {}",
                c.checked,
                crate::text::counted(c.positions, "case")
            );
            if !c.holds {
                println!("    {} counterexamples, the first:", c.counterexample_count);
                for x in &c.counterexamples {
                    println!("      {x}");
                }
            }
        }
        println!(
            "{} of {} statements hold within the bounds ({:.1} s)",
            checks.len() - failed,
            checks.len(),
            clock.elapsed().as_secs_f64()
        );
    }
    if failed > 0 {
        bail!("{failed} statement(s) have counterexamples");
    }
    Ok(())
}
