//! The Arrow PyCapsule interface, both ways: arrays come in from any object
//! with `__arrow_c_array__` (pyarrow, Polars, nanoarrow) without copying
//! their buffers, and result batches go out as objects with
//! `__arrow_c_array__` that pyarrow wraps without copying.
//! <https://arrow.apache.org/docs/format/CDataInterface/PyCapsuleInterface.html>

use std::ffi::CStr;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef, StructArray};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};

const SCHEMA_NAME: &CStr = c"arrow_schema";
const ARRAY_NAME: &CStr = c"arrow_array";

/// Imports the array that `object.__arrow_c_array__()` exports. The buffers
/// stay where the producer put them; the array keeps them alive.
pub fn import_array(object: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let pair = object.call_method0("__arrow_c_array__")?;
    let pair = pair.cast::<PyTuple>().map_err(|_| {
        PyTypeError::new_err("__arrow_c_array__ must return a (schema, array) tuple of capsules")
    })?;
    if pair.len() != 2 {
        return Err(PyTypeError::new_err(
            "__arrow_c_array__ must return a (schema, array) tuple of capsules",
        ));
    }
    let schema = pair.get_item(0)?;
    let array = pair.get_item(1)?;
    let schema = schema
        .cast::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("the Arrow schema is not a capsule"))?;
    let array = array
        .cast::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("the Arrow array is not a capsule"))?;
    let schema_ptr = schema.pointer_checked(Some(SCHEMA_NAME))?;
    let array_ptr = array.pointer_checked(Some(ARRAY_NAME))?;
    // SAFETY: the capsules are named as the PyCapsule interface requires, so
    // they point at an ArrowSchema and an ArrowArray. `from_raw` moves the
    // array out and marks the capsule's copy released, so the capsule's
    // destructor does not release it a second time; the schema is only
    // borrowed while its capsule is alive.
    let data = unsafe {
        let array = FFI_ArrowArray::from_raw(array_ptr.cast::<FFI_ArrowArray>().as_ptr());
        let schema = schema_ptr.cast::<FFI_ArrowSchema>().as_ref();
        from_ffi(array, schema)
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    Ok(make_array(data))
}

/// One block of results as an Arrow struct array (a record batch), handed
/// to pyarrow through `__arrow_c_array__`.
#[pyclass(frozen, module = "sudoku_batch._native")]
pub struct ArrowBatch {
    pub batch: StructArray,
}

#[pymethods]
impl ArrowBatch {
    /// Exports the batch as `(schema capsule, array capsule)`. A requested
    /// schema other than the batch's own is not honoured (the consumer
    /// casts, as the interface allows).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let (array, schema) = to_ffi(&self.batch.to_data())
            .map_err(|e| PyValueError::new_err(format!("cannot export the results: {e}")))?;
        let schema = PyCapsule::new_with_value(py, schema, SCHEMA_NAME)?;
        let array = PyCapsule::new_with_value(py, array, ARRAY_NAME)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }

    /// Rows in the batch.
    fn __len__(&self) -> usize {
        self.batch.len()
    }
}
