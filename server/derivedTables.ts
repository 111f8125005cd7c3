/**
 * The derived tables the server's modules keep, each registered by the module that owns it (the
 * dashboard's order counters and its shops' totals per day). The app loads them with its routes; a
 * command that builds a database's schema without the app (moving data into PostgreSQL) imports this
 * module first.
 */
import './orderStats';
import './topShops';
