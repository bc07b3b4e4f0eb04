//! Armada's integration tests: one binary, one module per topic.

mod support;

mod cli;
mod coords;
mod deduce;
mod placement;
mod properties;
mod scenarios;
mod uniformity;
