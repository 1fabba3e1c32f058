"""Generated from proto/ by referee.protocol.generate; do not edit."""
