"""onyx's IR: Module.parse(text), str(module), module.walk() and the
operations' names, attributes, operands, results and regions."""

from ._onyx import ir as _ir

Attribute = _ir.Attribute
Block = _ir.Block
Module = _ir.Module
Operation = _ir.Operation
Region = _ir.Region
Type = _ir.Type
Value = _ir.Value

__all__ = ["Attribute", "Block", "Module", "Operation", "Region", "Type", "Value"]
