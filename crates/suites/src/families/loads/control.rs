//! `Control: loop 1D|2D`: the load loops with the load replaced by arithmetic on the index:
//! what each loop shape costs by itself (not an issue ceiling of the load loops, which issue
//! more per iteration; the ceiling suite measures those).

use crate::data::{self, ThreadSum};
use crate::families::{Columns, Shared, Spec};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;

/// The loops of the buffer (1-D) and texture (2-D) kernels, reading nothing.
pub struct Control;

/// The loop shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// 256 iterations over elements (buffer kernels).
    OneD,
    /// 16×16 iterations over texels (texture kernels).
    TwoD,
}

impl Spec for Control {
    type Variant = Shape;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Shape, Pattern)> {
        vec![
            (Suite::Control, Shape::OneD, Pattern::Linear),
            (Suite::Control, Shape::TwoD, Pattern::Linear),
        ]
    }

    fn name(&self, s: Shape) -> String {
        match s {
            Shape::OneD => "Control: loop 1D".into(),
            Shape::TwoD => "Control: loop 2D".into(),
        }
    }

    /// A control kernel has a single pattern, so its name carries none.
    fn test_name(&self, s: Shape, _: Pattern) -> String {
        self.name(s)
    }

    fn columns(&self, _: Shape) -> Columns {
        Columns {
            family: "control",
            resource: "none",
            format: String::new(),
        }
    }

    fn bytes_per_load(&self, _: Shape) -> Option<u32> {
        None
    }

    fn kernel(&self, s: Shape, p: Pattern) -> KernelId {
        kernel_of(s, p)
    }

    fn reference(&self, s: Shape, p: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        match s {
            Shape::OneD => data::sum_1d(p, |i| [i as f32; 4]),
            Shape::TwoD => data::sum_2d(p, |x, y| [(x + 32 * y) as f32; 4]),
        }
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }
}

/// The kernel of loop shape `s` and pattern `p`.
const fn kernel_of(s: Shape, p: Pattern) -> KernelId {
    let shape = match s {
        Shape::OneD => "control_1d_w4_",
        Shape::TwoD => "control_2d_w4_",
    };
    named(&[Text(shape), Text(p.ident())])
}
check_built!(kernel_of; [Shape::OneD, Shape::TwoD], [Pattern::Linear]);
