//! A small HTTP/1.1 server on the loopback address for the unit tests: each test scripts its answers, and reads
//! back what the client sent.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A request as the server read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// One step of an answer.
#[derive(Debug, Clone)]
pub enum Step {
    Write(Vec<u8>),
    Sleep(Duration),
    /// Writes the bytes every interval until the client hangs up (then the server notes it).
    Repeat(Vec<u8>, Duration),
}

/// An answer: its steps in order, then the connection closes.
#[derive(Debug, Clone)]
pub struct Reply(pub Vec<Step>);

impl Reply {
    /// A whole answer.
    pub fn new(status: u16, headers: &[(&str, &str)], body: impl Into<Vec<u8>>) -> Reply {
        let body = body.into();
        let mut head = format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend(body);
        Reply(vec![Step::Write(bytes)])
    }

    /// A JSON answer.
    pub fn json(status: u16, body: serde_json::Value) -> Reply {
        Reply::new(status, &[("content-type", "application/json")], body.to_string())
    }

    /// Kasa's error body.
    pub fn error(status: u16, code: &str, message: &str, headers: &[(&str, &str)]) -> Reply {
        let body = serde_json::json!({ "message": message, "code": code, "requestId": "req-1" }).to_string();
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        Reply::new(status, &all, body)
    }

    /// The head of an event stream (no length: it ends when the connection closes), then `steps`.
    pub fn events(steps: Vec<Step>) -> Reply {
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-request-id: stream-1\r\nconnection: close\r\n\r\n";
        let mut all = vec![Step::Write(head.as_bytes().to_vec())];
        all.extend(steps);
        Reply(all)
    }

    /// Closes the connection without an answer.
    pub fn hang_up() -> Reply {
        Reply(vec![])
    }

    /// Answers nothing for a long time.
    pub fn silence() -> Reply {
        Reply(vec![Step::Sleep(Duration::from_secs(30))])
    }
}

/// An SSE event's bytes.
pub fn event(name: &str, data: &str) -> Step {
    Step::Write(format!("event: {name}\ndata: {data}\n\n").into_bytes())
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

/// The running server.
pub struct Server {
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
    hung_up: Arc<AtomicBool>,
}

impl Server {
    /// Starts a server that answers the n-th request (0-based) with `handler(request, n)`.
    pub async fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let hung_up = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let count = Arc::new(AtomicUsize::new(0));
        let (seen, closed) = (requests.clone(), hung_up.clone());
        tokio::spawn(async move {
            loop {
                let socket = match listener.accept().await {
                    Ok((socket, _)) => socket,
                    Err(_) => return,
                };
                let (handler, seen, closed, count) = (handler.clone(), seen.clone(), closed.clone(), count.clone());
                tokio::spawn(async move {
                    serve(socket, handler, seen, closed, count).await;
                });
            }
        });
        Server { url, requests, hung_up }
    }

    /// The requests so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    /// Whether the client hung up on a repeating answer.
    pub fn hung_up(&self) -> bool {
        self.hung_up.load(Ordering::SeqCst)
    }

    /// A client of this server without retries' long waits.
    pub fn client(&self) -> kasa::ClientBuilder {
        kasa::Client::builder().base_url(&self.url).api_key("").retry_policy(kasa::RetryPolicy {
            max_retries: 2,
            max_retry_delay: Duration::from_secs(5),
            base_delay: Duration::from_millis(5),
            max_backoff: Duration::from_millis(20),
        })
    }
}

async fn read_request(socket: &mut TcpStream) -> Option<Request> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_string(), first.next()?.to_string());
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = buffer[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Request { method, path, headers, body })
}

async fn serve(
    mut socket: TcpStream,
    handler: Arc<Handler>,
    seen: Arc<Mutex<Vec<Request>>>,
    closed: Arc<AtomicBool>,
    count: Arc<AtomicUsize>,
) {
    let request = match read_request(&mut socket).await {
        Some(request) => request,
        None => return,
    };
    let n = count.fetch_add(1, Ordering::SeqCst);
    seen.lock().unwrap().push(request.clone());
    let Reply(steps) = handler(&request, n);
    for step in steps {
        match step {
            Step::Write(bytes) => {
                if socket.write_all(&bytes).await.is_err() {
                    return;
                }
                let _ = socket.flush().await;
            }
            Step::Sleep(wait) => tokio::time::sleep(wait).await,
            Step::Repeat(bytes, every) => loop {
                if socket.write_all(&bytes).await.is_err() || socket.flush().await.is_err() {
                    closed.store(true, Ordering::SeqCst);
                    return;
                }
                tokio::time::sleep(every).await;
            },
        }
    }
    let _ = socket.shutdown().await;
}
