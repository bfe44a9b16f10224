//! `chopsticks serve` over a real socket: the API's values equal `query --json`'s for
//! every reachable position of three presets; bad input gets a 4xx; Ctrl-C stops it.

use crate::common;

use std::io::Read;
use std::process::Command;

use chopsticks_rules::{Notation, Position, Preset, SeatedPosition};
use chopsticks_space::{explore, Graph};
use common::json;
use common::server::{encode, Server};
use serde_json::Value;

#[test]
fn the_api_agrees_with_query_on_every_reachable_position() {
    let server = Server::start();
    for preset in [Preset::Standard, Preset::Rollover, Preset::Rahman] {
        let rules = preset.ruleset();
        let graph = Graph::new(&rules).unwrap();
        let start = graph.index_of(&Position::start(&rules));
        for i in explore(&graph, start, &|_| {}).reached.iter() {
            let text = graph
                .position(i)
                .to_notation(&rules, Notation::default_for(&rules))
                .unwrap();
            let cli = json(&["query", &text, "--preset", preset.name(), "--json"]);
            let (status, api) = server.get(&format!(
                "/api/v1/chopsticks/{}/positions/?p={}",
                preset.name(),
                encode(&text)
            ));
            assert_eq!(status, 200, "{text}: {api}");
            assert_eq!(api["positionValue"], cli["value"], "{text}");
            let r = |v: &Value| v.as_i64().unwrap_or(-200);
            assert_eq!(r(&api["remoteness"]), r(&cli["remoteness"]), "{text}");
            let (a, c) = (
                api["moves"].as_array().unwrap(),
                cli["moves"].as_array().unwrap(),
            );
            assert_eq!(a.len(), c.len(), "{text}");
            for (a, c) in a.iter().zip(c) {
                assert_eq!(a["move"], c["move"]);
                // The API and the command line both name the child with its
                // seat to move, Player 1's hands first.
                assert_eq!(a["position"], c["to"], "{text}");
                assert!(SeatedPosition::parse(a["position"].as_str().unwrap(), &rules).is_ok());
                assert_eq!(a["moveValue"], c["value"]);
                // The API gives the child's remoteness, the CLI the move's (one more).
                let child = r(&a["remoteness"]);
                let by_move = r(&c["remoteness"]);
                assert_eq!(child, if by_move == -200 { -200 } else { by_move - 1 });
            }
        }
    }
}

#[test]
fn bad_requests_get_a_4xx_and_ctrl_c_stops_the_server() {
    let mut server = Server::start();
    let (status, v) = server.get("/api/v1/chopsticks/standard/positions/?p=9999");
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("out of range"), "{v}");
    let (status, v) =
        server.get("/api/v1/chopsticks/standard.h8.f10/positions/?p=11111111-11111111");
    assert_eq!(status, 413, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("budget is 256.0 MiB"),
        "{v}"
    );
    let (status, _) = server.get("/healthz");
    assert_eq!(status, 200);
    // SIGINT, as Ctrl-C sends: the server says so and exits 0.
    let pid = server.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let mut rest = String::new();
    server
        .child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut rest)
        .unwrap();
    assert!(rest.contains("Stopped."), "{rest}");
    assert!(server.child.wait().unwrap().success());
}

#[test]
fn the_load_test_sends_every_request_and_all_succeed() {
    let v = json(&[
        "bench",
        "serve",
        "--requests",
        "3000",
        "--connections",
        "200",
        "--json",
    ]);
    assert_eq!(v["workload"], "serve");
    assert_eq!(v["variant"], "standard");
    assert_eq!(v["positions"], 199);
    assert_eq!(v["succeeded"], 3000);
    assert_eq!(v["failed"], 0);
    assert!(v["requests_per_second"].as_f64().unwrap() > 0.0);
    let latency = &v["latency_us"];
    assert!(latency["p50"].as_u64().unwrap() <= latency["p99"].as_u64().unwrap());
    assert!(latency["p99"].as_u64().unwrap() <= latency["max"].as_u64().unwrap());
}
