//! The language server's message reader (`lsp::transport`): the input is the bytes a client
//! sends. Every read ends (each call takes input or ends it, at most twice in a row not), every
//! reply is JSON, and every message read, written again, reads back the same. Small bounds (a
//! body of 4 KiB, a header line of 64 bytes) so that refusing and skipping are reached.
#![no_main]

use libfuzzer_sys::fuzz_target;
use turnscript::lsp::transport::{MessageReader, Read};

fuzz_target!(|data: &[u8]| {
    let mut reader = MessageReader::with_limits(data, 4096, 64);
    for _ in 0..2 * (data.len() + 2) {
        match reader.read_message() {
            Read::Message(m) => {
                let mut framed = Vec::new();
                m.write(&mut framed).expect("written to memory");
                let Read::Message(again) = MessageReader::new(framed.as_slice()).read_message() else {
                    panic!("a message written does not read back: {m:?}");
                };
                let text = |m: &lsp_server::Message| serde_json::to_string(m).expect("a message as JSON");
                assert_eq!(text(&m), text(&again));
            }
            Read::Skipped { note, reply } => {
                assert!(!note.is_empty());
                if let Some(r) = reply {
                    serde_json::from_str::<serde_json::Value>(&r).expect("a reply is JSON");
                }
            }
            Read::End | Read::Broken(_) => return,
        }
    }
    panic!("the reader went on without taking input");
});
