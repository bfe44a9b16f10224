//! The distributed solve gives the one-machine solver's file, byte for byte:
//! with worker threads in one process, and with processes that talk over TCP
//! on loopback (here several timely processes in one test, each on a thread).

use std::net::TcpListener;
use std::path::Path;

use chopsticks_distributed::{assemble, run, CommunicationConfig, Config, WorkerConfig};
use chopsticks_rules::{Preset, Ruleset};
use chopsticks_solve::{file, Solution};
use chopsticks_space::Graph;

fn reference(rules: &Ruleset) -> Vec<u8> {
    let graph = Graph::new(rules).unwrap();
    file::encode(&Solution::solve(&graph, &|_| {}).unwrap())
}

fn rulesets() -> Vec<Ruleset> {
    let mut out = Vec::new();
    for preset in [Preset::Standard, Preset::Rollover, Preset::Rahman] {
        for (hands, fingers) in [(vec![2, 2], 5), (vec![4, 4], 6), (vec![3, 5], 6)] {
            let rules = Ruleset {
                hands,
                fingers,
                ..preset.ruleset()
            };
            if rules.validate().is_ok() {
                out.push(rules);
            }
        }
    }
    out
}

/// Runs one solve per configuration at once (the processes of one cluster),
/// failing the test if they have not all finished within a minute.
fn solved_by(rules: &Ruleset, dir: &Path, configs: Vec<Config>) -> Vec<u8> {
    let (done, finished) = std::sync::mpsc::channel();
    let n = configs.len();
    for config in configs {
        let (rules, dir, done) = (rules.clone(), dir.to_path_buf(), done.clone());
        std::thread::spawn(move || {
            let result = run(&rules, config, &dir, None)
                .map(|_| ())
                .map_err(|e| e.to_string());
            let _ = done.send(result);
        });
    }
    for _ in 0..n {
        let result = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the workers finish within a minute");
        result.unwrap();
    }
    let out = dir.join("out.sol");
    assemble(rules, dir, &out).unwrap();
    std::fs::read(out).unwrap()
}

#[test]
fn worker_threads_give_the_one_machine_file() {
    for rules in rulesets() {
        for threads in [1, 2, 4] {
            let dir = tempfile::tempdir().unwrap();
            let got = solved_by(&rules, dir.path(), vec![Config::process(threads)]);
            assert!(
                got == reference(&rules),
                "{} with {threads} threads",
                rules.describe()
            );
        }
    }
}

/// `n` free ports on loopback.
fn addresses(n: usize) -> Vec<String> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect()
}

#[test]
fn processes_on_loopback_give_the_one_machine_file() {
    let rules = Ruleset {
        hands: vec![4, 4],
        fingers: 7,
        ..Preset::Standard.ruleset()
    };
    let want = reference(&rules);
    for processes in [2, 4] {
        let dir = tempfile::tempdir().unwrap();
        let addresses = addresses(processes);
        let configs = (0..processes)
            .map(|process| Config {
                communication: CommunicationConfig::Cluster {
                    threads: 1,
                    process,
                    addresses: addresses.clone(),
                    report: false,
                    zerocopy: false,
                },
                worker: WorkerConfig::default(),
            })
            .collect();
        let got = solved_by(&rules, dir.path(), configs);
        assert!(got == want, "{processes} processes");
    }
}

#[test]
fn reports_of_another_solve_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Preset::Standard.ruleset();
    run(&rules, Config::process(2), dir.path(), None).unwrap();
    let other = Preset::Rollover.ruleset();
    let err = assemble(&other, dir.path(), &dir.path().join("x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("holds a solve of"), "{err}");
    // A cells file damaged on its way between hosts: refused.
    let cells = chopsticks_distributed::cells_path(dir.path(), 0);
    let mut bytes = std::fs::read(&cells).unwrap();
    bytes[7] ^= 0x04;
    std::fs::write(&cells, &bytes).unwrap();
    let err = assemble(&rules, dir.path(), &dir.path().join("x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cells-0.bin is damaged"), "{err}");
    assert!(!dir.path().join("x.sol").exists());
    std::fs::remove_file(chopsticks_distributed::report_path(dir.path(), 1)).unwrap();
    let err = assemble(&rules, dir.path(), &dir.path().join("x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("worker-1.json"), "{err}");
    let empty = tempfile::tempdir().unwrap();
    let err = assemble(&rules, empty.path(), &empty.path().join("x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no worker reports in"), "{err}");
}

/// The exploration from the start on the workers reaches the positions of the
/// exploration on one machine and counts their outcomes as the summary does,
/// with one worker and with several (threads of one process).
#[test]
fn the_workers_explore_what_one_machine_explores() {
    use chopsticks_distributed::ReachCounts;
    use chopsticks_rules::Position;
    use chopsticks_solve::{Solution, Summary};
    use chopsticks_space::Graph;
    for rules in [
        Preset::Standard.ruleset(),
        Preset::Rollover.ruleset(),
        Ruleset {
            hands: vec![3, 3],
            fingers: 6,
            ..Preset::Standard.ruleset()
        },
    ] {
        let graph = Graph::new(&rules).unwrap();
        let start = graph.index_of(&Position::start(&rules));
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let reached = chopsticks_space::explore(&graph, start, &|_| {}).reached;
        let want = Summary::new(&graph, &solution, &reached, start).unwrap();
        for threads in [1, 3] {
            let dir = tempfile::tempdir().unwrap();
            let reports = run(&rules, Config::process(threads), dir.path(), Some(start)).unwrap();
            let got = ReachCounts::sum(reports.iter().map(|r| r.reach.as_ref().unwrap()));
            assert_eq!(got.reachable, want.reachable, "{}", rules.describe());
            assert_eq!(got.win, want.win);
            assert_eq!(got.lose, want.lose);
            assert_eq!(got.draw, want.draw);
            assert_eq!(got.terminal, want.terminal);
            assert_eq!(got.longest_win, want.longest_win);
            assert!(got.messages >= got.reachable - 1);
        }
    }
}
