//! A `chopsticks serve` process on a free port, and plain HTTP requests to it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A server on a free port, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub address: String,
}

impl Server {
    pub fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
            .args(["serve", "--port", "0", "--memory", "256M"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let address = announced_address(&mut child);
        Server { child, address }
    }

    /// `GET path`: the status and the JSON body.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status: u16 = response[9..12].parse().unwrap();
        let body = &response[response.find("\r\n\r\n").unwrap() + 4..];
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `host:port` a `chopsticks serve` child (its stdout piped) announces on
/// its first line (`Serving chopsticks on http://127.0.0.1:PORT/ …`).
pub fn announced_address(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().expect("stdout piped"))
        .read_line(&mut line)
        .unwrap();
    line.split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string()
}

/// Percent-encodes a query parameter.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'-' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
