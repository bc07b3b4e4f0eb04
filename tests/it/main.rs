//! Armada's integration tests: one binary, one module per topic.

mod support;

mod ai;
mod archimedes;
mod archimedes_net;
mod archimedes_table;
mod caught;
mod chaos;
mod cheats;
mod claims;
mod cli;
mod codes;
mod coords;
mod deduce;
mod fuzz;
mod hostile;
mod icehouse;
mod icehouse_net;
mod icehouse_table;
mod layers;
mod leaving;
mod liar;
mod net;
mod orders;
mod pair;
mod placement;
mod properties;
mod sampler;
mod saves;
mod scenarios;
mod session;
mod tables;
mod toy;
mod uniformity;
mod vectors;
mod window;
