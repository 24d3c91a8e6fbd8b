"""PostgreSQL and staging: connections and migrations, the ledger, loads, publications, statistics, near-duplicate tables."""
