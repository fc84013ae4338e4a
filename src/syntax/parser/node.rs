//! The pairs of a read, as the AST builder reads them: [`Node`] and [`Nodes`], over the queue the
//! lean read leaves (`lean::Queue`), with the part of pest's `Pair` and `Pairs` the builder uses
//! (`as_rule`, `as_span`, `as_str`, `into_inner`, `peek`, iteration), so that the builder reads
//! the queue as it is, without pest's `Pairs` made of it (a tree of nodes, then pest's own queue
//! and line index, per item). What pest's plain read gives (`Grammar::parse`, the read the lean
//! one is compared with) is queued the same way by [`queue_of`].

use pest::iterators::{Pairs, Tokens};

use super::Rule;
use super::lean::{Queue, Token};

/// A pair: its rule and the text it matched, and its children.
#[derive(Clone)]
pub(super) struct Node<'i> {
    input: &'i str,
    queue: &'i [Token<Rule>],
    /// Where its `Start` and its `End` are in the queue.
    first: usize,
    last: usize,
    rule: Rule,
    start: usize,
    end: usize,
}

/// Pairs side by side (a pair's children, or a read's top pairs), in order.
#[derive(Clone)]
pub(super) struct Nodes<'i> {
    input: &'i str,
    queue: &'i [Token<Rule>],
    /// The queue's tokens from `from` up to `to` (not included) hold the pairs still to come.
    from: usize,
    to: usize,
}

/// The text of a pair, as pest's `Span`: where it starts and ends in the text read.
pub(super) struct NodeSpan<'i> {
    input: &'i str,
    start: usize,
    end: usize,
}

impl<'i> NodeSpan<'i> {
    pub(super) fn start(&self) -> usize {
        self.start
    }

    pub(super) fn end(&self) -> usize {
        self.end
    }

    /// The whole text read (as pest's `Span::get_input`).
    pub(super) fn get_input(&self) -> &'i str {
        self.input
    }
}

impl<'i> Node<'i> {
    pub(super) fn as_rule(&self) -> Rule {
        self.rule
    }

    pub(super) fn as_span(&self) -> NodeSpan<'i> {
        NodeSpan {
            input: self.input,
            start: self.start,
            end: self.end,
        }
    }

    pub(super) fn as_str(&self) -> &'i str {
        // A read's positions are on the text's characters' boundaries.
        self.input.get(self.start..self.end).unwrap_or("")
    }

    pub(super) fn into_inner(self) -> Nodes<'i> {
        Nodes {
            input: self.input,
            queue: self.queue,
            from: self.first + 1,
            to: self.last,
        }
    }
}

impl<'i> Nodes<'i> {
    /// The top pairs of `queue`, a read of `input`.
    pub(super) fn new(input: &'i str, queue: &'i [Token<Rule>]) -> Self {
        Nodes {
            input,
            queue,
            from: 0,
            to: queue.len(),
        }
    }

    /// The next pair, without going past it.
    pub(super) fn peek(&self) -> Option<Node<'i>> {
        self.node_at(self.from)
    }

    /// How many pairs are left.
    pub(super) fn len(&self) -> usize {
        self.clone().count()
    }

    /// The pairs left and all their children, each pair before its children (as pest's
    /// `Pairs::flatten`).
    #[cfg(test)]
    pub(super) fn flatten(self) -> impl Iterator<Item = Node<'i>> {
        (self.from..self.to).filter_map(move |i| self.node_at(i))
    }

    /// The pair whose `Start` is at `first`, if that is one within these pairs.
    fn node_at(&self, first: usize) -> Option<Node<'i>> {
        if first >= self.to {
            return None;
        }
        let Some(&Token::Start { end: last, pos: start }) = self.queue.get(first) else {
            return None;
        };
        let Some(&Token::End { rule, pos: end }) = self.queue.get(last) else {
            return None;
        };
        Some(Node {
            input: self.input,
            queue: self.queue,
            first,
            last,
            rule,
            start,
            end,
        })
    }
}

impl<'i> Iterator for Nodes<'i> {
    type Item = Node<'i>;

    fn next(&mut self) -> Option<Node<'i>> {
        let node = self.node_at(self.from)?;
        self.from = node.last + 1;
        Some(node)
    }
}

/// pest's pairs, queued as the lean read queues them (each `Start` knowing where its `End` is).
pub(super) fn queue_of(pairs: Pairs<Rule>) -> Queue {
    queue_of_tokens(pairs.tokens())
}

/// pest's tokens (of pairs, or of one pair: `Pair::tokens`), queued as the lean read queues them.
pub(super) fn queue_of_tokens(tokens: Tokens<Rule>) -> Queue {
    let mut queue = Vec::new();
    let mut open = Vec::new();
    for token in tokens {
        match token {
            pest::Token::Start { pos, .. } => {
                open.push(queue.len());
                queue.push(Token::Start { end: 0, pos: pos.pos() });
            }
            pest::Token::End { rule, pos } => {
                let end = queue.len();
                if let Some(Token::Start { end: e, .. }) = open.pop().and_then(|i| queue.get_mut(i)) {
                    *e = end;
                }
                queue.push(Token::End { rule, pos: pos.pos() });
            }
        }
    }
    queue
}
