//! The matrix suite: cooperative matrices (subgroup and workgroup scope), dot products, vec4 peaks.

pub(super) mod coopmat;
pub(super) mod coopmat2;
pub(super) mod dot_product;
pub(super) mod peak;
