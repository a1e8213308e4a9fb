"""The world: a task trial's private services (admin planes) and how they run."""

from .audit import AuditEntry, AuditLog
from .fs import DeliverableMissing, FsService
from .service import SERVICE_TYPES, Credentials, Person, Service, ServiceContext, service_type
from .world import ServiceNotDeclared, World

__all__ = [
    "AuditEntry",
    "AuditLog",
    "Credentials",
    "DeliverableMissing",
    "FsService",
    "Person",
    "SERVICE_TYPES",
    "Service",
    "ServiceContext",
    "ServiceNotDeclared",
    "World",
    "service_type",
]
