//! The little linear algebra the workloads need: a 3-vector and a 4x4 matrix with an inverse.
//!
//! ecs_bench_suite uses cgmath; this is the same arithmetic (cofactor inverse, `w = 0`
//! vector transform) without the dependency. Every contender calls these same functions, so
//! results agree bit for bit.

use core::ops::AddAssign;

/// A 3-vector of `f32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Vec3 {
    /// x
    pub x: f32,
    /// y
    pub y: f32,
    /// z
    pub z: f32,
}

impl Vec3 {
    /// A vector from its coordinates.
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Vec3 { x, y, z }
    }

    /// `(1, 0, 0)`.
    pub const UNIT_X: Vec3 = Vec3::new(1.0, 0.0, 0.0);
}

impl AddAssign for Vec3 {
    #[inline]
    fn add_assign(&mut self, other: Vec3) {
        self.x += other.x;
        self.y += other.y;
        self.z += other.z;
    }
}

/// A 4x4 `f32` matrix, column-major like cgmath (`self.0[column][row]`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Mat4(pub [[f32; 4]; 4]);

impl Default for Mat4 {
    fn default() -> Self {
        Mat4::IDENTITY
    }
}

impl Mat4 {
    /// The identity matrix.
    pub const IDENTITY: Mat4 = Mat4([
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]);

    /// A rotation of `angle` radians about the x axis (cgmath's `Matrix4::from_angle_x`).
    pub fn from_angle_x(angle: f32) -> Self {
        let (sin, cos) = angle.sin_cos();
        Mat4([
            [1.0, 0.0, 0.0, 0.0],
            [0.0, cos, sin, 0.0],
            [0.0, -sin, cos, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }

    /// The inverse, or `None` for a singular matrix (cofactor expansion, as cgmath does).
    #[inline]
    pub fn invert(&self) -> Option<Mat4> {
        let m = &self.0;
        let (a00, a01, a02, a03) = (m[0][0], m[0][1], m[0][2], m[0][3]);
        let (a10, a11, a12, a13) = (m[1][0], m[1][1], m[1][2], m[1][3]);
        let (a20, a21, a22, a23) = (m[2][0], m[2][1], m[2][2], m[2][3]);
        let (a30, a31, a32, a33) = (m[3][0], m[3][1], m[3][2], m[3][3]);

        let b00 = a00 * a11 - a01 * a10;
        let b01 = a00 * a12 - a02 * a10;
        let b02 = a00 * a13 - a03 * a10;
        let b03 = a01 * a12 - a02 * a11;
        let b04 = a01 * a13 - a03 * a11;
        let b05 = a02 * a13 - a03 * a12;
        let b06 = a20 * a31 - a21 * a30;
        let b07 = a20 * a32 - a22 * a30;
        let b08 = a20 * a33 - a23 * a30;
        let b09 = a21 * a32 - a22 * a31;
        let b10 = a21 * a33 - a23 * a31;
        let b11 = a22 * a33 - a23 * a32;

        let determinant = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
        if determinant == 0.0 {
            return None;
        }
        let inv = 1.0 / determinant;
        Some(Mat4([
            [
                (a11 * b11 - a12 * b10 + a13 * b09) * inv,
                (a02 * b10 - a01 * b11 - a03 * b09) * inv,
                (a31 * b05 - a32 * b04 + a33 * b03) * inv,
                (a22 * b04 - a21 * b05 - a23 * b03) * inv,
            ],
            [
                (a12 * b08 - a10 * b11 - a13 * b07) * inv,
                (a00 * b11 - a02 * b08 + a03 * b07) * inv,
                (a32 * b02 - a30 * b05 - a33 * b01) * inv,
                (a20 * b05 - a22 * b02 + a23 * b01) * inv,
            ],
            [
                (a10 * b10 - a11 * b08 + a13 * b06) * inv,
                (a01 * b08 - a00 * b10 - a03 * b06) * inv,
                (a30 * b04 - a31 * b02 + a33 * b00) * inv,
                (a21 * b02 - a20 * b04 - a23 * b00) * inv,
            ],
            [
                (a11 * b07 - a10 * b09 - a12 * b06) * inv,
                (a00 * b09 - a01 * b07 + a02 * b06) * inv,
                (a31 * b01 - a30 * b03 - a32 * b00) * inv,
                (a20 * b03 - a21 * b01 + a22 * b00) * inv,
            ],
        ]))
    }

    /// `self * (v, 0)`: the vector transformed without translation (cgmath's
    /// `transform_vector`).
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        let m = &self.0;
        Vec3::new(
            m[0][0] * v.x + m[1][0] * v.y + m[2][0] * v.z,
            m[0][1] * v.x + m[1][1] * v.y + m[2][1] * v.z,
            m[0][2] * v.x + m[1][2] * v.y + m[2][2] * v.z,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn multiply(a: &Mat4, b: &Mat4) -> Mat4 {
        let mut out = [[0.0; 4]; 4];
        for (column, out_column) in out.iter_mut().enumerate() {
            for (row, entry) in out_column.iter_mut().enumerate() {
                *entry = (0..4).map(|k| a.0[k][row] * b.0[column][k]).sum();
            }
        }
        Mat4(out)
    }

    #[test]
    fn inverse_times_matrix_is_identity() {
        let mut matrix = Mat4::from_angle_x(1.2);
        matrix.0[3] = [1.0, 2.0, 3.0, 1.0];
        matrix.0[0][0] = 2.0;
        let product = multiply(&matrix, &matrix.invert().unwrap());
        for (column, values) in product.0.iter().enumerate() {
            for (row, value) in values.iter().enumerate() {
                let expected = if row == column { 1.0 } else { 0.0 };
                assert!((value - expected).abs() < 1e-5, "{product:?}");
            }
        }
    }

    #[test]
    fn singular_matrices_have_no_inverse() {
        assert_eq!(Mat4([[0.0; 4]; 4]).invert(), None);
    }

    #[test]
    fn rotation_about_x_keeps_x() {
        let rotated = Mat4::from_angle_x(1.2).transform_vector(Vec3::UNIT_X);
        assert_eq!(rotated, Vec3::UNIT_X);
    }
}
