// The Rust SDK's quick start as the developer portal shows it (frontends/developer/src/sdks/catalogue.ts), with
// http://localhost:8080 for the portal's address: KASA_API_KEY=… cargo run --example quickstart
// (KASA_BASE_URL to call another address). tests/integration/sdkQuickStarts.test.ts keeps the two the same.

use std::env;

use kasa::{Client, MessageParams, ReplyEvent, SessionCreateParams};

#[tokio::main]
async fn main() -> kasa::Result<()> {
    let client = Client::builder()
        .base_url(env::var("KASA_BASE_URL").unwrap_or_else(|_| "http://localhost:8080".to_owned()))
        .api_key(env::var("KASA_API_KEY").unwrap_or_default())
        .build()?;

    let session = client.sessions().create(&SessionCreateParams::new("nana", "Weekend in Kumasi")).await?;
    let mut stream = client.messages().stream(&session.id, &MessageParams::new("Akwaaba! What can you do?")).await?;
    while let Some(event) = stream.next().await? {
        if let ReplyEvent::Token(token) = event {
            print!("{}", token.text);
        }
    }
    println!();
    Ok(())
}
